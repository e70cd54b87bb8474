import type { ModelClient } from './modelClient';

/** A name the chat model gave an automatic theme. */
export interface ThemeName {
  label: string;
  summary: string;
}

/** Names automatic themes with the chat model. */
export interface ThemeNamer {
  readonly model: string;
  /** The name, or null when the reply held no usable one; ModelUnavailable when the model did not answer. */
  name(orgId: string, texts: readonly string[]): Promise<ThemeName | null>;
}

/** The longest label kept (a person's rename allows 100 characters; a model's stays short). */
export const MAX_MODEL_LABEL = 60;
export const MAX_SUMMARY = 200;

const NAME_PROMPT =
  'You read customer feedback items that were grouped together because they are about one subject of a ' +
  'software product. Answer with a JSON object {"label": ..., "summary": ...}: label, the subject in 2 to 5 ' +
  'words as a product manager would name it (no quotes, no trailing period); summary, one sentence of at most ' +
  '25 words saying what the customers report.';

const NAME_REPLY = {
  name: 'feedback_theme_name',
  schema: {
    type: 'object',
    properties: { label: { type: 'string' }, summary: { type: 'string' } },
    required: ['label', 'summary'],
    additionalProperties: false,
  },
  maxTokens: 80,
};

/** A field of the reply as one clean line, or null when it is missing, empty or too long. */
function lineOf(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const line = value
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["']|["']$/g, '');
  return line.length > 0 && line.length <= max ? line : null;
}

/**
 * The chat model as a namer of automatic themes (use `theme-names`): it is sent a few of a theme's items
 * (title and text each, as the sentiment pass sends them) and asked for a JSON object with a short label and
 * a one-line summary (`response_format` json_schema). Only those two fields are read; a reply without
 * either, or with one too long, is no name (the local label stays).
 */
export function chatThemeNamer(client: ModelClient, model: string): ThemeNamer {
  return {
    model,
    async name(orgId, texts) {
      const messages = [
        { role: 'system' as const, content: NAME_PROMPT },
        { role: 'user' as const, content: texts.map((text, i) => `Item ${i + 1}:\n${text}`).join('\n\n') },
      ];
      const reply = await client.chatJson(orgId, model, messages, NAME_REPLY);
      const label = lineOf(reply.label, MAX_MODEL_LABEL);
      const summary = lineOf(reply.summary, MAX_SUMMARY);
      return label && summary ? { label, summary } : null;
    },
  };
}
