/** The voice and language catalogs every account shares (contract §4). */
export interface Voice {
  id: number;
  name: string;
  provider: string;
  language: string;
}

export interface Language {
  id: number;
  name: string;
  code: string;
}

export const VOICES: readonly Voice[] = [
  { id: 1, name: 'Ava', provider: 'elevenlabs', language: 'English' },
  { id: 2, name: 'Liam', provider: 'elevenlabs', language: 'English' },
  { id: 3, name: 'Sofia', provider: 'azure', language: 'Spanish' },
  { id: 4, name: 'Hugo', provider: 'azure', language: 'French' },
  { id: 5, name: 'Greta', provider: 'google', language: 'German' },
  { id: 6, name: 'Aarav', provider: 'google', language: 'Hindi' },
  { id: 7, name: 'Marco', provider: 'openai', language: 'Italian' },
  { id: 8, name: 'Beatriz', provider: 'openai', language: 'Portuguese' },
];

export const LANGUAGES: readonly Language[] = [
  { id: 1, name: 'English', code: 'en' },
  { id: 2, name: 'Spanish', code: 'es' },
  { id: 3, name: 'French', code: 'fr' },
  { id: 4, name: 'German', code: 'de' },
  { id: 5, name: 'Hindi', code: 'hi' },
  { id: 6, name: 'Italian', code: 'it' },
  { id: 7, name: 'Portuguese', code: 'pt' },
  { id: 8, name: 'Dutch', code: 'nl' },
];

/** Contract §18: a language as voice runtimes take it (BCP-47); an unknown name: `en-US`. */
const BCP47: Record<string, string> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR', de: 'de-DE', hi: 'hi-IN', it: 'it-IT', pt: 'pt-BR', nl: 'nl-NL' };
export const runtimeLanguage = (name: string): string => BCP47[languageByName(name)?.code ?? ''] ?? 'en-US';

export const voiceById = (id: number) => VOICES.find((v) => v.id === id);
export const languageByName = (name: string) =>
  LANGUAGES.find((l) => l.name.toLowerCase() === name.trim().toLowerCase() || l.code === name.trim().toLowerCase());
