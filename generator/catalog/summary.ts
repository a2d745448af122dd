import type { CatalogModel } from '../model.js';

export interface CatalogSummary {
  eventTypes: number;
  eventVersions: number;
  sharedTypes: number;
  openEvents: number;
  gaps: number;
}

export function summarizeCatalog(model: CatalogModel): CatalogSummary {
  return {
    eventTypes: new Set(model.events.map((e) => e.type)).size,
    eventVersions: model.events.length,
    sharedTypes: model.sharedTypes.length,
    openEvents: model.events.filter((e) => e.open !== false).length,
    gaps: model.gaps.length,
  };
}

export function formatSummary(s: CatalogSummary): string {
  return `${s.eventTypes} event types, ${s.eventVersions} event versions, ${s.sharedTypes} shared types, ${s.openEvents} open events, ${s.gaps} gaps`;
}
