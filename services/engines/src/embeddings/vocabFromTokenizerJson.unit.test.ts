import { describe, expect, it } from 'vitest'
import { vocabFromTokenizerJson } from './vocabFromTokenizerJson.js'
import { createWordPieceTokenizer, parseVocab } from './wordPieceTokenizer.js'

/**
 * The shape of the tokenizer.json that bge-small-en-v1.5 and e5-small-v2 ship (LangChain4j's jars, from Xenova's
 * exports), with a vocabulary of a few tokens listed out of id order, as JSON objects may list them.
 */
function tokenizerJson() {
  return {
    version: '1.0',
    truncation: null as null | { max_length: number },
    padding: null,
    added_tokens: [
      { id: 0, content: '[PAD]', special: true },
      { id: 1, content: '[UNK]', special: true },
      { id: 2, content: '[CLS]', special: true },
      { id: 3, content: '[SEP]', special: true },
    ],
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null as boolean | null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
    } as Record<string, unknown>,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: { caf: 6, '[SEP]': 3, '[PAD]': 0, '##e': 7, hello: 4, '[UNK]': 1, '[CLS]': 2, '!': 5 } as Record<
        string,
        unknown
      >,
    },
  }
}

describe('vocab.txt from tokenizer.json', () => {
  it('lists the WordPiece tokens by id, one per line, so our tokenizer gives the ids the model was trained with', () => {
    const vocab = vocabFromTokenizerJson(tokenizerJson(), { maxTokens: 512 })
    expect(vocab).toBe('[PAD]\n[UNK]\n[CLS]\n[SEP]\nhello\n!\ncaf\n##e\n')
    const tokenizer = createWordPieceTokenizer(parseVocab(vocab), { maxTokens: 512 })
    // Lower-cased and accents stripped, as the normalizer says: "Café" is caf ##e.
    expect(tokenizer.encode('Hello Café!').inputIds).toEqual([2, 4, 6, 7, 5, 3])
  })

  it('takes explicit accent stripping, a truncation at our limit and the older BertProcessing as ours', () => {
    const json = tokenizerJson()
    json.normalizer.strip_accents = true
    json.truncation = { max_length: 256 }
    json.post_processor = { type: 'BertProcessing', sep: ['[SEP]', 3], cls: ['[CLS]', 2] }
    expect(vocabFromTokenizerJson(json, { maxTokens: 256 })).toContain('[CLS]\n')
  })

  it('refuses a tokenizer that keeps case or accents, or cuts texts elsewhere, naming each difference', () => {
    const json = tokenizerJson()
    json.normalizer.lowercase = false
    json.normalizer.strip_accents = false
    json.truncation = { max_length: 128 }
    expect(() => vocabFromTokenizerJson(json, { maxTokens: 512 })).toThrow(
      'tokenizer.json does not describe the BERT WordPiece tokenizer we run: normalizer does not lower-case; ' +
        'normalizer keeps accents; truncation is at 128 tokens, not 512',
    )
  })

  it('refuses another kind of tokenizer', () => {
    const json = tokenizerJson()
    json.model.type = 'BPE'
    json.pre_tokenizer.type = 'ByteLevel'
    json.normalizer.type = 'NFC'
    json.post_processor = { type: 'RobertaProcessing' }
    expect(() => vocabFromTokenizerJson(json, { maxTokens: 512 })).toThrow(
      /normalizer is not a BertNormalizer; pre_tokenizer is not a BertPreTokenizer; post_processor does not make \[CLS\] text \[SEP\]; model is BPE, not WordPiece/,
    )
  })

  it('refuses a vocabulary with a gap, a shared id, a missing special token or a token vocab.txt cannot hold', () => {
    const json = tokenizerJson()
    json.model.vocab = { '[PAD]': 0, '[UNK]': 1, '[CLS]': 1, 'two\nlines': 2, far: 9 }
    expect(() => vocabFromTokenizerJson(json, { maxTokens: 512 })).toThrow(
      /id 1 is given to two tokens; token "two\\nlines" cannot be a line of vocab\.txt; token "far" has id 9, outside 0–4; the vocabulary has no \[CLS\]; the vocabulary has no \[SEP\]/,
    )
  })

  it('refuses special tokens whose ids differ from the vocabulary', () => {
    const json = tokenizerJson()
    json.added_tokens[2] = { id: 7, content: '[CLS]', special: true }
    expect(() => vocabFromTokenizerJson(json, { maxTokens: 512 })).toThrow(
      /added token \[CLS\] has id 7, not its vocabulary id/,
    )
  })

  it('refuses what is not a tokenizer.json at all', () => {
    expect(() => vocabFromTokenizerJson({ vocab: {} }, { maxTokens: 512 })).toThrow(/it has no model/)
  })
})
