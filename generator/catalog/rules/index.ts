import { apiOperations } from './api-operations.js';
import { apiTypes } from './api-types.js';
import type { DeclarationRule, ModelRule } from './catalog-rule.js';
import { gapReferences } from './gap-references.js';
import { objectPrototypeNames } from './object-prototype-names.js';
import { typescriptNames } from './typescript-names.js';
import { uniqueDeclarations } from './unique-declarations.js';
import { unusedSharedTypes } from './unused-shared-types.js';
import { validNames } from './valid-names.js';

export type { DeclarationRule, ModelRule } from './catalog-rule.js';

/**
 * Every catalog rule, by name. Adding a rule is adding a file here: reference errors, reuse
 * cycles and unknown types are found while resolving (resolve/), since they need the lookup.
 */
export const DECLARATION_RULES: readonly DeclarationRule[] = [validNames, objectPrototypeNames, uniqueDeclarations, typescriptNames, gapReferences, apiTypes, apiOperations];

export const MODEL_RULES: readonly ModelRule[] = [unusedSharedTypes];
