// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How a scenario spreads the model over its GPUs and the host: read by the engine modules and
// the evaluation alike.

namespace kvscope {

struct Scenario;

// GPUs that split each layer's heads and run together (tensor parallel): those of one node, or
// of every node when the scenario runs tensor parallel across them; a layer split runs whole
// layers on one GPU at a time, so it divides memory but not time.
int tensorWays(const Scenario& scenario);
// Stages the layers are cut into, each on its own GPUs and run one after another (pipeline
// parallel): every GPU under a layer split, else one per node. vLLM's guide for several nodes:
// "the tensor parallel size [is] the number of GPUs in each node, and the pipeline parallel
// size [is] the number of nodes" (docs/serving/parallelism_scaling.md). None (one stage) when
// tensor parallel spans the nodes.
int pipelineWays(const Scenario& scenario);
// GPUs in each node.
int gpusPerNode(const Scenario& scenario);
// Data-parallel attention (SGLang's --enable-dp-attention, vLLM's --data-parallel-size over a
// MoE model): the tensor-parallel group's GPUs form ranks, each running attention for its own
// share of the requests, tensor parallel over its GPUs, so its attention weights are its
// rank's share and its KV holds its rank's heads of those requests only; the experts stay split
// over all of them (SGLang's server_args.py, dp_attention.py). The ranks are the stated
// attentionRanksStated, else a rank per GPU, or 1 without it; KV heads are split over kvWays()
// GPUs, each rank's.
int attentionRanks(const Scenario& scenario);
int kvWays(const Scenario& scenario);
// Expert parallel (Scenario::expertParallel): the GPUs a layer's routed experts are shared out
// over whole (the tensor-parallel GPUs; vLLM: "In EP, each device owns a set of experts fully",
// fused_moe/config.py), else 1; and the ways one expert's matrices are split tensor-parallel,
// 1 under expert parallel.
int expertWays(const Scenario& scenario);
int expertShardWays(const Scenario& scenario);
// Whether tensor parallel can split the attention heads evenly over the GPUs: vLLM refuses a
// tensor_parallel_size that does not divide num_attention_heads (vllm/config.py,
// ModelConfig.verify_with_parallel_config: "Total number of attention heads (64) must be
// divisible by tensor parallel size (3)"), and TGI's shards split the heads alike. The KV heads
// too: each GPU takes a share of them, or, when there are fewer than GPUs, a copy of one, so one
// count must divide the other (vllm/model_executor/models/llama.py, LlamaAttention: "assert
// self.total_num_kv_heads % tp_size == 0", else "assert tp_size % self.total_num_kv_heads ==
// 0"). An MLA latent has no heads to split. A layer split or one GPU always does.
bool splitsHeadsEvenly(const Scenario& scenario);
// The nearest GPU counts below and above the scenario's that split its heads evenly (0 when
// there is none below; above, at most the head count itself).
struct HeadSplits
{
    int below = 0;
    int above = 0;
};
HeadSplits nearestHeadSplits(const Scenario& scenario);
// Share of the model's layers on the GPUs; the rest stay in host RAM (llama.cpp -ngl).
double gpuLayerShare(const Scenario& scenario);

// Per-GPU communicator buffers the engine holds: its tensor-parallel overhead when the layers are
// split tensor-parallel over NVLink-linked GPUs (measured on H100s), otherwise none.
double tensorParallelBufferMiB(const Scenario& scenario);

} // namespace kvscope
