/**
 * The `vocab.txt` our WordPiece tokenizer reads, derived from a HuggingFace `tokenizer.json`, after checking that
 * the file describes the tokenizer we implement: BERT's normalizer lower-casing and stripping accents, BERT's
 * pre-tokenizer, WordPiece with `##` continuations and [UNK], [CLS] text [SEP], and no truncation shorter than
 * ours. A tokenizer that differs in any of these would give other ids than its model was trained with, silently;
 * this refuses it instead.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Longer words become one [UNK]; the value our tokenizer uses (WordPieceTokenizerOptions.maxCharsPerWord). */
const MAX_CHARS_PER_WORD = 100

function problemsOf(json: Record<string, unknown>, maxTokens: number): string[] {
  const problems: string[] = []
  const { normalizer, pre_tokenizer: preTokenizer, post_processor: postProcessor, truncation } = json
  if (!isRecord(normalizer) || normalizer.type !== 'BertNormalizer') {
    problems.push('normalizer is not a BertNormalizer')
  } else {
    if (normalizer.lowercase !== true) problems.push('normalizer does not lower-case')
    // null: accents are stripped when lower-casing, as in the original BERT tokenizer.
    if (normalizer.strip_accents === false) problems.push('normalizer keeps accents')
    if (normalizer.clean_text !== true) problems.push('normalizer does not clean control characters')
    if (normalizer.handle_chinese_chars !== true) problems.push('normalizer does not separate CJK ideographs')
  }
  if (!isRecord(preTokenizer) || preTokenizer.type !== 'BertPreTokenizer') {
    problems.push('pre_tokenizer is not a BertPreTokenizer')
  }
  if (isRecord(truncation) && truncation.max_length !== maxTokens) {
    problems.push(`truncation is at ${String(truncation.max_length)} tokens, not ${maxTokens}`)
  }
  const single = isRecord(postProcessor) ? postProcessor.single : undefined
  const template = Array.isArray(single)
    ? single.map((piece) =>
        isRecord(piece) && isRecord(piece.SpecialToken)
          ? piece.SpecialToken.id
          : isRecord(piece) && isRecord(piece.Sequence)
            ? `$${String(piece.Sequence.id)}`
            : '?',
      )
    : []
  const bertProcessing =
    isRecord(postProcessor) &&
    postProcessor.type === 'BertProcessing' &&
    Array.isArray(postProcessor.cls) &&
    postProcessor.cls[0] === '[CLS]' &&
    Array.isArray(postProcessor.sep) &&
    postProcessor.sep[0] === '[SEP]'
  if (!bertProcessing && template.join(' ') !== '[CLS] $A [SEP]') {
    problems.push('post_processor does not make [CLS] text [SEP]')
  }
  return problems
}

/**
 * @param options.maxTokens the model's token limit as our tokenizer will apply it (LocalEmbeddingModel.maxTokens)
 * @returns the contents of `vocab.txt`: one token per line, the line number (from 0) its id
 * @throws Error naming every way the tokenizer differs from ours
 */
export function vocabFromTokenizerJson(json: unknown, options: { maxTokens: number }): string {
  if (!isRecord(json) || !isRecord(json.model)) throw new Error('not a tokenizer.json: it has no model')
  const { model } = json
  const problems = problemsOf(json, options.maxTokens)
  if (model.type !== 'WordPiece') problems.push(`model is ${String(model.type)}, not WordPiece`)
  if (model.continuing_subword_prefix !== '##') problems.push('word pieces do not continue with ##')
  if (model.unk_token !== '[UNK]') problems.push('the unknown token is not [UNK]')
  if (model.max_input_chars_per_word !== MAX_CHARS_PER_WORD) {
    problems.push(
      `words are cut at ${String(model.max_input_chars_per_word)} characters, not ${MAX_CHARS_PER_WORD}`,
    )
  }

  const entries = isRecord(model.vocab) ? Object.entries(model.vocab) : []
  const tokens: string[] = []
  for (const [token, id] of entries) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= entries.length) {
      problems.push(`token ${JSON.stringify(token)} has id ${String(id)}, outside 0–${entries.length - 1}`)
    } else if (tokens[id] !== undefined) problems.push(`id ${id} is given to two tokens`)
    else if (/[\r\n]/.test(token))
      problems.push(`token ${JSON.stringify(token)} cannot be a line of vocab.txt`)
    else tokens[id] = token
  }
  if (entries.length === 0) problems.push('the vocabulary is empty')
  for (const special of ['[PAD]', '[UNK]', '[CLS]', '[SEP]']) {
    if (!tokens.includes(special)) problems.push(`the vocabulary has no ${special}`)
  }
  const ids = new Map(tokens.map((token, id) => [token, id]))
  for (const added of Array.isArray(json.added_tokens) ? json.added_tokens : []) {
    if (isRecord(added) && typeof added.content === 'string' && ids.get(added.content) !== added.id) {
      problems.push(`added token ${added.content} has id ${String(added.id)}, not its vocabulary id`)
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `tokenizer.json does not describe the BERT WordPiece tokenizer we run: ${problems.join('; ')}`,
    )
  }
  return tokens.map((token) => `${token}\n`).join('')
}
