import { Injectable } from '@nestjs/common';
import { ImportList, LeadImportDocument, LeadImportsProjection } from './lead-imports.projection';

/** What the imports feature reads of its own read model. */
@Injectable()
export class LeadImportsQueries {
  constructor(private readonly projection: LeadImportsProjection) {}

  /** The user's import into that list, or null (another user's, or one into the other list, is as missing). */
  async owned(organisationId: number, id: number, list: ImportList = 'leads'): Promise<LeadImportDocument | null> {
    const found = await this.projection.imports.get(id);
    return found && found.user_id === organisationId && found.list === list ? found : null;
  }

  /** docs/privacy.md: the organisation's refused import rows whose message names `text` (a number in any of its spellings). */
  async refusedRowsNaming(organisationId: number, spellings: string[]): Promise<Array<{ import_id: number; row: number; message: string }>> {
    const imports = await this.projection.imports.find({ user_id: organisationId }, { sort: [['id', 'asc']] });
    return imports.flatMap((found) =>
      found.errors.filter((error) => spellings.some((spelling) => error.message.includes(spelling))).map((error) => ({ import_id: found.id, ...error })),
    );
  }

  /** Whether the import is known to have ended (completed or failed). */
  async ended(id: number): Promise<boolean> {
    const found = await this.projection.imports.get(id);
    return found !== null && found.status !== 'running';
  }

  /** Imports whose body is still arriving, or was when the process storing it stopped. */
  uploading(): Promise<LeadImportDocument[]> {
    return this.projection.imports.find({ status: 'running', uploaded: false }, { sort: [['id', 'asc']] });
  }

  /** Imports whose rows are stored and not all done: what a restart goes on with. */
  unfinished(): Promise<LeadImportDocument[]> {
    return this.projection.imports.find({ status: 'running', uploaded: true }, { sort: [['id', 'asc']] });
  }
}
