import { describe, expect, it } from 'vitest'
import { restoreDroppedSubject } from './droppedSubjects.js'

describe('restoreDroppedSubject', () => {
  it.each([
    ['Dyed my hair last week - come see!', 'I dyed my hair last week - come see!'],
    ['Glad to be part of it.', "I'm glad to be part of it."],
    ['So excited!', "I'm so excited!"],
    ["Can't wait for tomorrow's grand opening!", "I can't wait for tomorrow's grand opening!"],
    ['Still working on opening a dance studio.', "I'm still working on opening a dance studio."],
    ['Gonna continue my edu.', "I'm gonna continue my edu."],
    ['Love that purple color!', 'I love that purple color!'],
    ['Been running longer since our last chat.', "I've been running longer since our last chat."],
    [
      'Researching adoption agencies — it has been a dream.',
      "I'm researching adoption agencies — it has been a dream.",
    ],
    ['Just got back from Paris.', 'I just got back from Paris.'],
  ])('restores the subject of %j', (sentence, restored) => {
    expect(restoreDroppedSubject(sentence)).toBe(restored)
  })

  it.each([
    'Check out my painting!',
    'Taking care of ourselves is vital.',
    "Taking in kids in need - you're so kind.",
    'Seeing the impact fills me with joy.',
    'Made me think about it.',
    'Jared went home.',
    'Did you see it?',
    'The colors blend nicely.',
  ])('leaves %j alone', (sentence) => {
    expect(restoreDroppedSubject(sentence)).toBe(sentence)
  })
})
