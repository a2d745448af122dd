/** Why a consumer ended other than by `stop()`, on any broker: what failed, and what to do about it. */
export class ConsumerFailedError extends Error {
  override name = 'ConsumerFailedError';
}
