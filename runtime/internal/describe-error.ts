/** An error for a sentence: `TypeError: message`, or a thrown non-error as text. */
export const describeError = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
