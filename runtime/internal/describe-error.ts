/**
 * What was thrown, in words: the one way the runtime describes an error. Both forms never
 * throw, whatever was thrown: a value with no way to become text (`Object.create(null)`),
 * or an error whose `message` or `name` getter throws, is described as such.
 */

/** An error for a log or a reason kept with a message: `TypeError: message`, or a thrown non-error as text. */
export const describeError = (thrown: unknown): string => safely(() => (thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown)));

/** An error for a person reading a command's output or a refusal: its message alone, or a thrown non-error as text. */
export const errorMessage = (thrown: unknown): string => safely(() => (thrown instanceof Error ? thrown.message : String(thrown)));

function safely(describe: () => string): string {
  try {
    return describe();
  } catch {
    return 'a value that cannot be read as text was thrown';
  }
}
