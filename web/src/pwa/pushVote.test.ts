/** One tap from a push notification: what the service worker and the page agree on. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { claimPushVote, openedFromPush, proposalOfUrl, voteOfAction } from './pushVote.ts'

describe('a vote tapped on a notification', () => {
  it('only the two buttons are votes; a tap on the notification itself is none', () => {
    assert.equal(voteOfAction('approve'), true)
    assert.equal(voteOfAction('reject'), false)
    assert.equal(voteOfAction(''), null)
    assert.equal(voteOfAction(undefined), null)
    assert.equal(voteOfAction('approve '), null)
  })

  it('finds the proposal of a notification’s page, and nothing else', () => {
    assert.equal(proposalOfUrl('/proposals/12'), 12)
    assert.equal(proposalOfUrl('/proposals/12?x=1'), 12)
    assert.equal(proposalOfUrl('/proposals/12/edit'), null)
    assert.equal(proposalOfUrl('/proposals/new'), null)
    assert.equal(proposalOfUrl('/board'), null)
    assert.equal(proposalOfUrl('https://elsewhere.example/proposals/12'), null)
  })

  it('a proposal’s page opened from a push says so; other pages open as they are', () => {
    assert.equal(openedFromPush('/proposals/12'), '/proposals/12?from=push')
    assert.equal(openedFromPush('/proposals/12?tab=votes'), '/proposals/12?tab=votes&from=push')
    assert.equal(openedFromPush('/notifications'), '/notifications')
  })

  it('a page without a service worker claims nothing', async () => {
    assert.equal(await claimPushVote(12), null)
  })
})
