// verify's sender and redactor as its run pairs them (the sender teaches the redactor what each exchange carried), with
// the contract both read, for tests that call a part of verify without the whole run.
import { Redactor } from "../../src/contract/redact.ts";
import { Sender } from "../../src/verify/sender.ts";
import { contract } from "./contract.ts";

export function senderAndRedactor(): { sender: Sender; redactor: Redactor; document: typeof contract } {
  const redactor = new Redactor(contract);
  return { sender: new Sender({ rate: undefined, redactor }), redactor, document: contract };
}
