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
    ['Gotta focus on the plan.', "I've gotta focus on the plan."],
    ['Wanna try it.', 'I wanna try it.'],
    ['Been so busy lately.', "I've been so busy lately."],
    ['Always been curious about space.', "I've always been curious about space."],
    ['Been to Paris twice.', "I've been to Paris twice."],
    ['Bet it was fun.', 'I bet it was fun.'],
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
    // "(It's) been a long week for me", "(It's) been ages".
    'Been a long week for me.',
    'Been ages since we talked.',
    // The opening phrase belongs to the subject after it.
    "Taking your tip, I'm repainting my room.",
    'Walking home, she saw a fox.',
    // Past forms that are adjectives too: no subject to restore.
    'Broke again this month, rent ate everything.',
    'Bit tired today.',
  ])('leaves %j alone', (sentence) => {
    expect(restoreDroppedSubject(sentence)).toBe(sentence)
  })
})
