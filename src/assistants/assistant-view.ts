import { Injectable } from '@nestjs/common';
import { toolView } from '../tools/tools.projection';
import { ToolsQueries } from '../tools/tools.queries';
import { assistantRecord } from './assistant-record';
import { AssistantDocument } from './assistants.projection';

/**
 * Renders list records. Tools are looked up live, so a deleted tool is gone from every
 * assistant and an updated one shows its new values.
 */
@Injectable()
export class AssistantView {
  constructor(private readonly tools: ToolsQueries) {}

  async render(docs: AssistantDocument[]) {
    const ids = [...new Set(docs.flatMap((d) => d.settings.tool_ids))];
    const tools = await this.tools.byIds(ids);
    const byId = new Map(tools.map((t) => [t.id, t]));
    return docs.map((doc) => ({
      ...assistantRecord(doc, doc.settings),
      tools: doc.settings.tool_ids.flatMap((id) => {
        const tool = byId.get(id);
        return tool && tool.user_id === doc.user_id ? [toolView(tool)] : [];
      }),
    }));
  }
}

/** An assistant as the API and the voice runtimes see it: its list record with its tools. */
export type RenderedAssistant = Awaited<ReturnType<AssistantView['render']>>[number];
