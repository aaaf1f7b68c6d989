// SPDX-License-Identifier: GPL-3.0-or-later
// Hugging Face transformers: no memory cap, the prompt in one forward pass, the cache grown per
// token (DynamicCache), reserved up front (StaticCache) or kept in CPU RAM but for the layers in
// flight (OffloadedCache). All of it is the catalog's data; only the decode step differs from the
// shared behaviour: generate() launches its kernels eagerly from Python, unless compiled.
#include "engines/engine_modules.h"
#include "kvscope/model/weights.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kvscope::engines {

namespace {
class TransformersEngine final : public EngineModule
{
public:
    bool loadsOriginalAs(const WeightFormat& w) const override
    {
        return EngineModule::loadsOriginalAs(w) || w.id == "int8" || w.id == "nf4";
    }
    bool fetchesGgufByType() const override { return false; }
    LaunchCommand launchCommand(const Scenario& s) const override;
    // generate() runs eager PyTorch, every kernel of every layer launched from Python, unless
    // the profile compiles the step (a static cache under torch.compile's CUDA graphs).
    bool capturesCudaGraphs(const Scenario& s) const override
    {
        return s.engine.compiled && !s.enforceEager;
    }
};

std::string pythonString(const std::string& text)
{
    std::string out = "\"";
    for (char ch : text) {
        if (ch == '\\' || ch == '"')
            out += '\\';
        out += ch;
    }
    return out + "\"";
}

// A GGUF file loads from its directory; anything else by its own name.
std::string modelIdOf(const CheckpointChoice& checkpoint)
{
    if (!checkpoint.path || !checkpoint.name.ends_with(".gguf"))
        return checkpoint.name;
    const std::filesystem::path dir = std::filesystem::path(checkpoint.name).parent_path();
    return dir.empty() ? "." : dir.string();
}

// How the weights load: a torch dtype, a bitsandbytes config, or a quantized checkpoint.
void addWeights(const Scenario& s, const CheckpointChoice& checkpoint,
                std::vector<std::string>& args, std::string& imports, LaunchCommand& c)
{
    const std::string& f = s.weights.id;
    if (f == "fp32" || f == "fp16" || f == "bf16") {
        args.push_back("torch_dtype=torch." + std::string(f == "fp32"   ? "float32"
                                                          : f == "bf16" ? "bfloat16"
                                                                        : "float16"));
    } else if (f == "int8" || f == "nf4") {
        imports += ", BitsAndBytesConfig";
        args.push_back(f == "int8" ? "quantization_config=BitsAndBytesConfig(load_in_8bit=True)"
                                   : "quantization_config=BitsAndBytesConfig(load_in_4bit=True, "
                                     "bnb_4bit_quant_type=\"nf4\", "
                                     "bnb_4bit_compute_dtype=torch.float16)");
    } else if (s.weights.family == "gguf") {
        // from_pretrained takes the directory (or repository) and the file's name in it.
        const std::string file = checkpoint.ggufFile.empty()
                                     ? std::filesystem::path(checkpoint.name).filename().string()
                                     : checkpoint.ggufFile;
        args.push_back("gguf_file=" + pythonString(file));
        c.notes.push_back("transformers dequantizes a GGUF file to full precision when it loads "
                          "it, so memory follows FP16, not " +
                          s.weights.name + ".");
    } else {
        args.push_back("torch_dtype=\"auto\""); // the format is the checkpoint's
    }
}

// generate()'s cache: DynamicCache unless the engine preallocates (static), or the KV lives in
// CPU RAM (offloaded), or the KV dtype is quantized (QuantizedCache).
std::string cacheArguments(const Scenario& s, LaunchCommand& c)
{
    const bool offloaded = s.kvPlacement == KvPlacement::CpuRam;
    if (s.kvPlacement == KvPlacement::Nvme || s.kvPlacement == KvPlacement::Sata)
        c.notes.push_back("transformers' caches live in GPU or CPU memory, not on disk.");
    const std::string& kv = s.kvDtype.id;
    if (kv != "fp16" && kv != "bf16") {
        const bool four = kv == "q4_0" || kv == "q4_1";
        if (four || kv == "int8" || kv == "q8_0")
            return std::string(
                       ", cache_implementation=\"quantized\", cache_config={\"backend\": ") +
                   (four ? "\"quanto\", \"nbits\": 4}" : "\"HQQ\", \"nbits\": 8}");
        c.notes.push_back("transformers' QuantizedCache stores 2, 4 (quanto) or 1 to 8 bits "
                          "(HQQ); it has no " +
                          s.kvDtype.name + " cache.");
    }
    if (s.engine.preallocatesKv)
        return offloaded ? ", cache_implementation=\"offloaded_static\""
                         : ", cache_implementation=\"static\"";
    return offloaded ? ", cache_implementation=\"offloaded\"" : "";
}

LaunchCommand TransformersEngine::launchCommand(const Scenario& s) const
{
    LaunchCommand c;
    c.language = "python";
    c.source = "https://huggingface.co/docs/transformers/kv_cache";
    std::string imports = "AutoModelForCausalLM, AutoTokenizer";
    std::vector<std::string> args{"model_id"};
    const CheckpointChoice checkpoint = chooseCheckpoint(s);
    if (!checkpoint.note.empty())
        c.notes.push_back(checkpoint.note);
    addWeights(s, checkpoint, args, imports, c);
    if (s.gpuCount > 1 && !s.engine.layerSplit) {
        args.push_back("tp_plan=\"auto\"");
        c.notes.push_back("Tensor parallel in transformers runs under torchrun --nproc-per-node " +
                          std::to_string(s.gpuCount) + ".");
    } else {
        args.push_back(s.offloadWeights || s.gpuCount > 1 ? "device_map=\"auto\""
                                                          : "device_map=\"cuda\"");
    }
    std::string text = "import torch\nfrom transformers import " + imports + "\n\n";
    text += "model_id = " + pythonString(modelIdOf(checkpoint)) + "\n";
    text += "tokenizer = AutoTokenizer.from_pretrained(model_id, padding_side=\"left\")\n";
    text += "model = AutoModelForCausalLM.from_pretrained(\n";
    for (const std::string& a : args)
        text += "    " + a + ",\n";
    text += ")\n";
    if (s.batch > 1)
        text += "tokenizer.pad_token = tokenizer.pad_token or tokenizer.eos_token\n";
    text += "prompts = [\"...\"] * " + std::to_string(s.batch) + "\n";
    text += "inputs = tokenizer(prompts, return_tensors=\"pt\", padding=True).to(model.device)\n";
    text += "out = model.generate(**inputs, max_length=" + std::to_string(s.context) +
            cacheArguments(s, c) + ")\n";
    c.text = text;
    return c;
}
} // namespace

const EngineModule& transformers()
{
    static const TransformersEngine module;
    return module;
}

} // namespace kvscope::engines
