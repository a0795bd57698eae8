import { PartialType } from '@nestjs/mapped-types';
import { Type } from 'class-transformer';
import { ValidateBy, ValidateNested } from 'class-validator';
import {
  Arr,
  Between,
  Bool,
  HttpUrl,
  Int,
  MaxLen,
  Num,
  Obj,
  OneOf,
  Pattern,
  Required,
  Rules,
  Str,
  Optional,
  Nullable,
  Timezone,
} from '../shared/validation/rules';

/** Each id of the list a positive integer. */
const IntIds = () =>
  ValidateBy({
    name: 'ids',
    validator: {
      validate: (value) => Array.isArray(value) && value.every((v) => Number.isInteger(v) && v > 0),
      defaultMessage: () => 'The :attribute field must be a list of ids.',
    },
  });

export class PostCallSchemaItemDto {
  @Rules(Required(), Str(), MaxLen(64), Pattern(/^[A-Za-z0-9_]+$/)) name!: string;
  @Rules(Required(), OneOf(['string', 'number', 'bool'])) type!: 'string' | 'number' | 'bool';
  @Rules(Required(), Str(), MaxLen(255)) description!: string;
}

export class CreateAssistantDto {
  @Rules(Required(), Str(), MaxLen(255)) assistant_name!: string;
  @Rules(Required(), Int()) voice_id!: number;
  @Rules(Required(), Str(), MaxLen(100)) language!: string;
  @Rules(Required(), Str(), MaxLen(100)) llm_model!: string;
  @Rules(Required(), OneOf(['receive', 'make'])) calls_direction!: 'receive' | 'make';
  @Rules(Required(), OneOf(['pipeline', 'multimodal'])) engine_type!: 'pipeline' | 'multimodal';
  @Rules(Required(), Str(), Timezone()) timezone!: string;
  @Rules(Required(), Str(), MaxLen(10_000)) initial_message!: string;
  @Rules(Required(), Str(), MaxLen(100_000)) system_prompt!: string;

  @Nullable() @Rules(Int()) phone_number_id?: number | null;
  @Optional() @Rules(Arr(), IntIds()) tool_ids?: number[];
  @Optional() @Rules(OneOf(['vad', 'ai'])) endpoint_type?: 'vad' | 'ai';
  @Optional() @Rules(Num(), Between(0, 5)) endpoint_sensitivity?: number;
  @Optional() @Rules(Num(), Between(0, 5)) interrupt_sensitivity?: number;
  @Optional() @Rules(Num(), Between(0, 1)) ambient_sound_volume?: number;
  @Optional() @Rules(Bool()) post_call_evaluation?: boolean;
  @Optional() @Rules(Bool()) send_webhook_only_on_completed?: boolean;
  @Optional() @Rules(Bool()) include_recording_in_webhook?: boolean;
  @Optional() @Rules(Bool()) is_webhook_active?: boolean;
  @Nullable() @Rules(HttpUrl()) webhook_url?: string | null;
  @Nullable() @Rules(HttpUrl()) inbound_webhook_url?: string | null;
  @Optional() @Rules(Bool()) use_min_interrupt_words?: boolean;
  @Optional() @Rules(Int(), Between(0, 10)) min_interrupt_words?: number;
  @Optional() @Rules(Obj()) variables?: Record<string, unknown>;
  @Optional() @Rules(Arr()) @ValidateNested({ each: true }) @Type(() => PostCallSchemaItemDto) post_call_schema?: PostCallSchemaItemDto[];
  @Nullable() @Rules(Str(), MaxLen(500)) 'end_call_tool.description'?: string | null;
  @Optional() @Rules(Num(), Between(0, 1)) llm_temperature?: number;
  @Optional() @Rules(Num(), Between(0, 1)) voice_stability?: number;
  @Optional() @Rules(Num(), Between(0, 1)) voice_similarity?: number;
  @Optional() @Rules(Num(), Between(0.7, 1.2)) speech_speed?: number;
  @Optional() @Rules(Bool()) allow_interruptions?: boolean;
  @Optional() @Rules(Bool()) filler_audios?: boolean;
  @Optional() @Rules(Int(), Between(7, 600)) re_engagement_interval?: number;
  @Optional() @Rules(Int(), Between(20, 1200)) max_call_duration?: number;
  @Optional() @Rules(Int(), Between(1, 120)) max_silence_duration?: number;
  @Optional() @Rules(Bool()) end_call_on_voicemail?: boolean;
  @Optional() @Rules(Bool()) noise_cancellation?: boolean;
  @Optional() @Rules(Bool()) record_call?: boolean;
  @Optional() @Rules(OneOf(['AI assistant', 'Customer'])) who_speaks_first?: 'AI assistant' | 'Customer';
}

/** The same rules, every field optional; nulls are judged by the decider (some fields may be unset). */
export class UpdateAssistantDto extends PartialType(CreateAssistantDto, { skipNullProperties: false }) {}
