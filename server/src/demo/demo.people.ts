/**
 * The demo stake's people and places (docs/demo.md). Every name is invented
 * for the demo: whimsical surnames and example.com addresses make that plain,
 * so a screenshot of the demo is never mistaken for a real stake's records.
 */

export interface DemoPerson {
  fname: string
  lname: string
}

export const DEMO_WARDS: { name: string; start_time: number }[] = [
  { name: 'Alderbrook Ward', start_time: 9 * 60 },
  { name: 'Bramblecrest Ward', start_time: 10 * 60 + 30 },
  { name: 'Cindergate Ward', start_time: 12 * 60 },
  { name: 'Dewberry Hollow Ward', start_time: 9 * 60 },
  { name: 'Elmsworth Ward', start_time: 10 * 60 + 30 },
  { name: 'Fernwhistle Ward', start_time: 12 * 60 },
  { name: 'Gladstone Mill Ward', start_time: 9 * 60 },
  { name: 'Hollyhock Bend Ward', start_time: 10 * 60 + 30 },
]

/** The president, the first and second counselors, the executive secretary and the clerk, in that order. */
export const DEMO_STAKE_OFFICERS: DemoPerson[] = [
  { fname: 'Abner', lname: 'Quillfeather' },
  { fname: 'Basil', lname: 'Thistlewood' },
  { fname: 'Cyrus', lname: 'Marrowby' },
  { fname: 'Dorian', lname: 'Pebblestone' },
  { fname: 'Edwin', lname: 'Larkspurr' },
]

export const DEMO_HIGH_COUNCILORS: DemoPerson[] = [
  { fname: 'Felix', lname: 'Brambleton' },
  { fname: 'Gideon', lname: 'Wickersham' },
  { fname: 'Horace', lname: 'Nettlefold' },
  { fname: 'Ignatius', lname: 'Puddingstone' },
  { fname: 'Jasper', lname: 'Gorsebury' },
  { fname: 'Kendrick', lname: 'Snapdrake' },
  { fname: 'Leopold', lname: 'Fiddlewick' },
  { fname: 'Mortimer', lname: 'Hazelcombe' },
  { fname: 'Nestor', lname: 'Buttercrane' },
  { fname: 'Osric', lname: 'Tumbleford' },
  { fname: 'Percival', lname: 'Quagmire' },
  { fname: 'Quentin', lname: 'Pumpernell' },
]

/** One bishop per ward, in the order of DEMO_WARDS. */
export const DEMO_BISHOPS: DemoPerson[] = [
  { fname: 'Rupert', lname: 'Candlewick' },
  { fname: 'Silas', lname: 'Mossgrove' },
  { fname: 'Thaddeus', lname: 'Inkwell' },
  { fname: 'Ulric', lname: 'Sparrowhawk' },
  { fname: 'Virgil', lname: 'Teaspoon' },
  { fname: 'Wendell', lname: 'Copperkettle' },
  { fname: 'Xavier', lname: 'Plumtree' },
  { fname: 'Yorick', lname: 'Honeysett' },
]

/** Members named in proposals (they hold no account). */
export const DEMO_MEMBERS: (DemoPerson & { spouse?: string })[] = [
  { fname: 'Agatha', lname: 'Fennimore', spouse: 'Barnaby' },
  { fname: 'Bartholomew', lname: 'Crumble', spouse: 'Clementine' },
  { fname: 'Clarabel', lname: 'Dunwiddie' },
  { fname: 'Desmond', lname: 'Flutterby', spouse: 'Delphine' },
  { fname: 'Eudora', lname: 'Gumblewort' },
  { fname: 'Florian', lname: 'Higgleston', spouse: 'Fiona' },
  { fname: 'Gwendolyn', lname: 'Jumbleberry', spouse: 'Gregory' },
  { fname: 'Hubert', lname: 'Kettleburn' },
  { fname: 'Imogen', lname: 'Lollygag', spouse: 'Ivor' },
  { fname: 'Jeremiah', lname: 'Mumblecroft', spouse: 'Josephine' },
  { fname: 'Kasimir', lname: 'Noodleton' },
  { fname: 'Lavinia', lname: 'Oddsworth', spouse: 'Lionel' },
  { fname: 'Montague', lname: 'Piddlecombe', spouse: 'Matilda' },
  { fname: 'Nigella', lname: 'Quibbleton' },
  { fname: 'Octavius', lname: 'Rumbletree', spouse: 'Ottilie' },
  { fname: 'Prudence', lname: 'Snickerby' },
  { fname: 'Rowena', lname: 'Twaddle', spouse: 'Reginald' },
]

/** A year of monthly speaking topics (index 0 = January). */
export const DEMO_TOPICS: string[] = [
  'Beginning again',
  'Ministering one by one',
  'The Sabbath as a delight',
  'Easter and the Resurrection',
  'Families and the temple',
  'Serving in our callings',
  'Gratitude',
  'Studying the scriptures at home',
  'Welcoming new members',
  'Prayer',
  'Being a peacemaker',
  'The gift of the Savior',
]

/** The part of an address before `@` for a person, made of plain letters. */
export const mailbox = (p: DemoPerson): string => `${p.fname}.${p.lname}`.toLowerCase().replace(/[^a-z.]/g, '')
