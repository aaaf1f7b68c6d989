#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the small GGUF files kept in the tree: seeds for the fuzz_gguf corpus and the hostile
GGUF files of tests/hostile. Header only (no tensor data), little-endian, GGUF version 3, as
ggml's docs/gguf.md lays it out. Run from the project root: python3 scripts/make-gguf-fixtures.py
"""
import struct

U32, STRING, ARRAY = 4, 8, 9
SIZES = {0: (1, 4), 1: (1, 2), 8: (32, 34), 12: (256, 144), 14: (256, 210)}  # F32 F16 Q8_0 Q4_K Q6_K


def text(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


class Gguf:
    def __init__(self):
        self.kv, self.keys, self.tensors, self.end = b"", 0, [], 0

    def u32(self, key, v):
        self.kv += text(key) + struct.pack("<II", U32, v)
        self.keys += 1

    def str(self, key, v):
        self.kv += text(key) + struct.pack("<I", STRING) + text(v)
        self.keys += 1

    def raw(self, key, type_, payload):
        self.kv += text(key) + struct.pack("<I", type_) + payload
        self.keys += 1

    def tensor(self, name, dims, type_, offset=None):
        block, size = SIZES[type_]
        n = 1
        for d in dims:
            n *= d
        off = self.end if offset is None else offset
        self.tensors.append((name, dims, type_, off))
        self.end = (self.end + n // block * size + 31) // 32 * 32

    def bytes(self, version=3, tensor_count=None):
        out = b"GGUF" + struct.pack("<IQQ", version, len(self.tensors) if tensor_count is None
                                    else tensor_count, self.keys) + self.kv
        for name, dims, type_, off in self.tensors:
            out += text(name) + struct.pack("<I", len(dims)) + struct.pack(f"<{len(dims)}Q", *dims)
            out += struct.pack("<IQ", type_, off)
        return out


def llama(layers=2):
    g = Gguf()
    g.str("general.architecture", "llama")
    g.str("general.name", "Tiny Llama")
    g.u32("general.file_type", 15)
    for k, v in [("block_count", layers), ("context_length", 4096), ("embedding_length", 256),
                 ("feed_forward_length", 512), ("attention.head_count", 4),
                 ("attention.head_count_kv", 2)]:
        g.u32("llama." + k, v)
    g.tensor("token_embd.weight", [256, 1000], 12)
    for i in range(layers):
        for name, dims, t in [("attn_norm", [256], 0), ("attn_q", [256, 256], 12),
                              ("attn_k", [256, 128], 12), ("attn_v", [256, 128], 14),
                              ("attn_output", [256, 256], 12), ("ffn_norm", [256], 0),
                              ("ffn_gate", [256, 512], 12), ("ffn_up", [256, 512], 12),
                              ("ffn_down", [512, 256], 14)]:
            g.tensor(f"blk.{i}.{name}.weight", dims, t)
    g.tensor("output_norm.weight", [256], 0)
    g.tensor("output.weight", [256, 1000], 14)
    return g


def moe():
    g = Gguf()
    g.str("general.architecture", "qwen3moe")
    for k, v in [("block_count", 1), ("embedding_length", 256), ("feed_forward_length", 512),
                 ("attention.head_count", 4), ("attention.head_count_kv", 4), ("expert_count", 8),
                 ("expert_used_count", 2), ("expert_feed_forward_length", 256)]:
        g.u32("qwen3moe." + k, v)
    g.tensor("token_embd.weight", [256, 100], 8)
    g.tensor("blk.0.attn_q.weight", [256, 256], 8)
    g.tensor("blk.0.ffn_gate_inp.weight", [256, 8], 0)
    for part, t in [("gate", 12), ("up", 12), ("down", 14)]:
        g.tensor(f"blk.0.ffn_{part}_exps.weight", [256, 256, 8], t)
    return g


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


corpus = "tests/fuzz/corpus/fuzz_gguf/"
write(corpus + "tiny-llama.gguf", llama().bytes())
write(corpus + "tiny-moe.gguf", moe().bytes())
g = Gguf()
g.str("general.architecture", "gemma2")
for k, v in [("block_count", 4), ("embedding_length", 256), ("attention.head_count", 2),
             ("attention.sliding_window", 4096)]:
    g.u32("gemma2." + k, v)
g.tensor("token_embd.weight", [256, 10], 1)
write(corpus + "tiny-gemma2.gguf", g.bytes())

hostile = "tests/hostile/"
write(hostile + "gguf-wrong-magic.gguf", b"GGML" + llama().bytes()[4:])
write(hostile + "gguf-version-1.gguf", llama().bytes(version=1))
write(hostile + "gguf-truncated.gguf", llama().bytes()[:300])
write(hostile + "gguf-absurd-tensor-count.gguf", llama().bytes(tensor_count=2**63))
g = llama()
g.raw("general.description", STRING, struct.pack("<Q", 2**60))
write(hostile + "gguf-absurd-string-length.gguf", g.bytes())
g = llama()
g.raw("tokenizer.ggml.tokens", ARRAY, struct.pack("<IQ", STRING, 2**62))
write(hostile + "gguf-absurd-array-count.gguf", g.bytes())
g = llama()
g.tensors[3] = (g.tensors[3][0], g.tensors[3][1], g.tensors[3][2], 0)
write(hostile + "gguf-overlapping-tensors.gguf", g.bytes())
g = llama()
g.tensors[0] = ("token_embd.weight", [2**40, 2**20], 12, 0)
write(hostile + "gguf-huge-tensor.gguf", g.bytes())
g = llama()
g.raw("llama.attention.head_count_kv", ARRAY, struct.pack("<IQII", U32, 2, 2, 0))
write(hostile + "gguf-layers-without-attention.gguf", g.bytes())
