// Rules of this repository that no published ESLint plugin has, used by eslint.config.mjs.

/** A reference a reader of the repository cannot open: a tracker's issue number, or a section of the spec. */
const OUTSIDE_REFERENCE = /\b(issues? #?\d+(?![\w-])|spec(?:'s)? ?§)/i

/**
 * Comments say why in their own words or point at text inside the repository
 * (docs/…, ARCHITECTURE.md): an issue number or a section of an outside
 * document means nothing to the next reader and goes stale without a sound.
 */
const commentReferences = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Comments cite no issue number and no document outside the repository' },
    schema: [],
    messages: {
      outside:
        'This comment cites "{{text}}", which a reader of the repository cannot open: say the why itself or cite docs/… or ARCHITECTURE.md.',
    },
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const match = OUTSIDE_REFERENCE.exec(comment.value)
          if (match) context.report({ loc: comment.loc, messageId: 'outside', data: { text: match[0] } })
        }
      },
    }
  },
}

export default { rules: { 'comment-references': commentReferences } }
