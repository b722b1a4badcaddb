// Puts a server on a free port of 127.0.0.1 and says where it is and how to stop it: what verify's receiver and proxy
// and the tests' stubs all need.
import type http from "node:http";
import type { AddressInfo } from "node:net";

export interface Listening {
  url: string;
  /** Ends open connections too, so a test or a run never waits on a client's keep-alive. */
  close(): Promise<void>;
}

export async function listenOnLoopback(server: http.Server): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
