/** A cell, root or path the call names is not there: told apart from bad arguments and failures across the contract. */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}
