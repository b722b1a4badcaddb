// verify's sender and redactor as its run pairs them (the sender teaches the redactor what each exchange carried), for
// tests that call a part of verify without the whole run.
import { Redactor } from "../../src/contract/redact.ts";
import { Sender } from "../../src/verify/http.ts";
import { contract } from "./contract.ts";

export function senderAndRedactor(): { sender: Sender; redactor: Redactor } {
  const redactor = new Redactor(contract);
  return { sender: new Sender({ rate: undefined, redactor }), redactor };
}
