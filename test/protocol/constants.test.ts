import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CloseCode, Opcode, WS_GUID, isControlOpcode, isValidCloseCode } from '../../src/protocol/constants.js';

test('opcodes and close codes have their RFC 6455 values', () => {
  assert.deepEqual(Opcode, { Continuation: 0, Text: 1, Binary: 2, Close: 8, Ping: 9, Pong: 10 });
  assert.equal(CloseCode.Normal, 1000);
  assert.equal(CloseCode.ProtocolError, 1002);
  assert.equal(CloseCode.NoStatus, 1005);
  assert.equal(CloseCode.Abnormal, 1006);
  assert.equal(CloseCode.InvalidPayload, 1007);
  assert.equal(CloseCode.MessageTooBig, 1009);
  assert.equal(CloseCode.InternalError, 1011);
  assert.equal(WS_GUID, '258EAFA5-E914-47DA-95CA-C5AB0DC85B11');
});

test('isControlOpcode: the most significant opcode bit marks control frames', () => {
  for (let op = 0; op < 16; op++) assert.equal(isControlOpcode(op), op >= 8, `opcode ${op}`);
});

test('isValidCloseCode follows Autobahn: 1000-1003, 1007-1011, 3000-4999', () => {
  const valid = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999];
  const invalid = [0, 1, 999, 1004, 1005, 1006, 1012, 1013, 1014, 1015, 1016, 1100, 2000, 2999, 5000, 65535, 1000.5];
  for (const code of valid) assert.equal(isValidCloseCode(code), true, `${code}`);
  for (const code of invalid) assert.equal(isValidCloseCode(code), false, `${code}`);
});
