import type { ItemVectors } from './itemVectors';
import type { ThemeNamer } from './themeNames';

/**
 * What the theme computation may ask of the configured models (see docs/ai.md), each null when its model
 * is not configured or its use is off in AI_FEATURES: then the local methods answer.
 */
export interface ModelThemes {
  /** The embedding model's vectors for the assignment to curated themes (use `assignment`). */
  assignment: ItemVectors | null;
  /** The embedding model's vectors for the automatic themes (use `themes`). */
  clustering: ItemVectors | null;
  /** The chat model, naming automatic themes (use `theme-names`). */
  names: ThemeNamer | null;
}

/** No model: the theme computation uses the local methods only, and sends nothing. */
export const noModelThemes: ModelThemes = { assignment: null, clustering: null, names: null };
