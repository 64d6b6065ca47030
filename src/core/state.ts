/** RFC 6455 connection states, as Autobahn names them. */
export const ConnectionState = { Connecting: 0, Open: 1, Closing: 2, Closed: 3 } as const;
/** One of ConnectionState's values. */
export type ConnectionStateValue = (typeof ConnectionState)[keyof typeof ConnectionState];
