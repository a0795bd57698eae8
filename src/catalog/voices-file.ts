import { readFileSync } from 'node:fs';

/** A catalog voice as VOICES_FILE lists it (docs/real-calls.md): the catalog's fields and, optionally, the runtimes' ids. */
export interface VoiceEntry {
  id: number;
  name: string;
  provider: string;
  language: string;
  runtime_voices?: {
    vapi?: { provider: string; voiceId: string };
    retell?: string;
    twilio?: { ttsProvider: string; voice: string };
  };
}

const isText = (v: unknown) => typeof v === 'string' && v.length > 0;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why an entry is not a voice, or null. */
function problemOf(entry: unknown, i: number): string | null {
  if (!isObject(entry)) return `voice ${i} must be an object`;
  if (!Number.isInteger(entry.id) || (entry.id as number) < 1) return `voice ${i}: id must be a positive integer`;
  for (const field of ['name', 'provider', 'language']) if (!isText(entry[field])) return `voice ${i}: ${field} must be a non-empty string`;
  const runtime = entry.runtime_voices;
  if (runtime === undefined) return null;
  if (!isObject(runtime)) return `voice ${i}: runtime_voices must be an object`;
  if (runtime.vapi !== undefined && !(isObject(runtime.vapi) && isText(runtime.vapi.provider) && isText(runtime.vapi.voiceId))) {
    return `voice ${i}: runtime_voices.vapi must be {provider, voiceId}`;
  }
  if (runtime.retell !== undefined && !isText(runtime.retell)) return `voice ${i}: runtime_voices.retell must be a voice id`;
  if (runtime.twilio !== undefined && !(isObject(runtime.twilio) && isText(runtime.twilio.ttsProvider) && isText(runtime.twilio.voice))) {
    return `voice ${i}: runtime_voices.twilio must be {ttsProvider, voice}`;
  }
  return null;
}

/** VOICES_FILE's voices (a JSON array of catalog voices, ids unique), or the problems that keep the service from starting. */
export function readVoicesFile(file: string, problems: string[]): VoiceEntry[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(`VOICES_FILE must name a readable JSON file (${(error as Error).message.split('\n')[0]})`);
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    problems.push('VOICES_FILE must hold a JSON array of at least one voice');
    return null;
  }
  const found = parsed.map(problemOf).filter((p): p is string => p !== null);
  const ids = parsed.map((v: { id?: unknown }) => v?.id);
  if (new Set(ids).size !== ids.length) found.push('voice ids must be unique');
  if (found.length) {
    problems.push(...found.slice(0, 5).map((p) => `VOICES_FILE: ${p}`));
    return null;
  }
  return parsed as VoiceEntry[];
}
