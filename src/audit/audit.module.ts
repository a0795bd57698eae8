import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller';
import { AuditProjection } from './audit.projection';

@Module({ controllers: [AuditController], providers: [AuditProjection] })
export class AuditModule {}
