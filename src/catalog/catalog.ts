/** The voice and language catalogs every account shares (docs/api.md). */
/** docs/real-calls.md: the voice as each runtime names it; a runtime left out uses its own default. */
export interface RuntimeVoices {
  vapi?: { provider: string; voiceId: string };
  retell?: string;
  twilio?: { ttsProvider: string; voice: string };
}

export interface Voice {
  id: number;
  name: string;
  provider: string;
  language: string;
  runtime_voices?: RuntimeVoices;
}

export interface Language {
  id: number;
  name: string;
  code: string;
}

/** The built-in catalog (docs/api.md, docs/real-calls.md). */
export const BUILT_IN_VOICES: readonly Voice[] = [
  // Ids from the vendors' catalogs: ElevenLabs' premade voices, Azure neural voices, OpenAI's TTS voices, Retell's voice list.
  {
    id: 1,
    name: 'Ava',
    provider: 'elevenlabs',
    language: 'English',
    runtime_voices: {
      vapi: { provider: '11labs', voiceId: '21m00Tcm4TlvDq8ikWAM' },
      retell: '11labs-Myra',
      twilio: { ttsProvider: 'ElevenLabs', voice: '21m00Tcm4TlvDq8ikWAM' },
    },
  },
  {
    id: 2,
    name: 'Liam',
    provider: 'elevenlabs',
    language: 'English',
    runtime_voices: {
      vapi: { provider: '11labs', voiceId: 'TX3LPaxmHKxFdv7VOQHJ' },
      retell: '11labs-Adrian',
      twilio: { ttsProvider: 'ElevenLabs', voice: 'TX3LPaxmHKxFdv7VOQHJ' },
    },
  },
  {
    id: 3,
    name: 'Sofia',
    provider: 'azure',
    language: 'Spanish',
    runtime_voices: { vapi: { provider: 'azure', voiceId: 'es-ES-ElviraNeural' }, twilio: { ttsProvider: 'Amazon', voice: 'Lucia-Neural' } },
  },
  {
    id: 4,
    name: 'Hugo',
    provider: 'azure',
    language: 'French',
    runtime_voices: { vapi: { provider: 'azure', voiceId: 'fr-FR-HenriNeural' }, twilio: { ttsProvider: 'Amazon', voice: 'Remi-Neural' } },
  },
  { id: 5, name: 'Greta', provider: 'google', language: 'German', runtime_voices: { vapi: { provider: 'azure', voiceId: 'de-DE-KatjaNeural' } } },
  { id: 6, name: 'Aarav', provider: 'google', language: 'Hindi', runtime_voices: { vapi: { provider: 'azure', voiceId: 'hi-IN-MadhurNeural' } } },
  { id: 7, name: 'Marco', provider: 'openai', language: 'Italian', runtime_voices: { vapi: { provider: 'openai', voiceId: 'onyx' }, retell: 'openai-Onyx' } },
  {
    id: 8,
    name: 'Beatriz',
    provider: 'openai',
    language: 'Portuguese',
    runtime_voices: { vapi: { provider: 'openai', voiceId: 'nova' }, retell: 'openai-Nova' },
  },
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

/** docs/real-calls.md: a language as voice runtimes take it (BCP-47); an unknown name: `en-US`. */
const BCP47: Record<string, string> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR', de: 'de-DE', hi: 'hi-IN', it: 'it-IT', pt: 'pt-BR', nl: 'nl-NL' };
export const runtimeLanguage = (name: string): string => BCP47[languageByName(name)?.code ?? ''] ?? 'en-US';

let voices: readonly Voice[] = BUILT_IN_VOICES;

/** The catalog this process serves: the built-in one, or VOICES_FILE's, set once at start. */
export const catalogVoices = (): readonly Voice[] => voices;
export function useVoices(list: readonly Voice[] | null): void {
  voices = list ?? BUILT_IN_VOICES;
}

export const voiceById = (id: number) => voices.find((v) => v.id === id);
export const languageByName = (name: string) =>
  LANGUAGES.find((l) => l.name.toLowerCase() === name.trim().toLowerCase() || l.code === name.trim().toLowerCase());
