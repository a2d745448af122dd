/**
 * `@data-import/event-catalog/rest`: the data-import service's REST contract at run time.
 * Check requests and responses against the generated validators, answer in the service's
 * validation error format, and call the API with a typed client that keeps the seed's
 * retry rules. Nothing here imports build-time tools.
 */
export { apiOperations } from '../../generated/api/operations.js';
export { validateRequest, validateResponse } from './validate.js';
export type { ApiErrorCode, ApiRequestParts, ApiResult } from './validate.js';
export type { ApiIssue } from './issues.js';
export type { Issue, IssueCode } from '../internal/issues.js';
export { toValidationErrorBody } from './error-body.js';
export type * from '../../generated/api/types.js';
export { createDataImportClient, DataImportNetworkError } from './client.js';
export type { ApiCallResponse, ApiCallResult, CallOptions, DataImportClient, DataImportClientOptions, RetryOptions } from './client.js';
