<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>ChartActions</name>
    <message>
        <source>Export as PNG...</source>
        <translation>PNG でエクスポート...</translation>
    </message>
    <message>
        <source>Export as PNG, 2× resolution...</source>
        <translation>PNG（2 倍解像度）でエクスポート...</translation>
    </message>
    <message>
        <source>Export as SVG...</source>
        <translation>SVG でエクスポート...</translation>
    </message>
    <message>
        <source>Export as PDF...</source>
        <translation>PDF でエクスポート...</translation>
    </message>
    <message>
        <source>Copy chart</source>
        <translation>グラフをコピー</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 画像 (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 画像 (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF ドキュメント (*.pdf)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>グラフのエクスポート</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>エクスポートに失敗しました</translation>
    </message>
    <message>
        <source>%1 could not be written: %2. The previous file, if any, is unchanged.</source>
        <translation>%1 に書き込めませんでした: %2。既存のファイルは変更されていません。</translation>
    </message>
    <message>
        <source>Export table as CSV...</source>
        <translation>表を CSV でエクスポート...</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>表のエクスポート</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV ファイル (*.csv)</translation>
    </message>
    <message>
        <source>Export for a 16:9 slide (PNG, 1920 × 1080)...</source>
        <translation>16:9 スライド用に書き出し（PNG、1920 × 1080）...</translation>
    </message>
</context>
<context>
    <name>ChartExport</name>
    <message>
        <source>the view has no table</source>
        <translation>このビューには表がありません</translation>
    </message>
    <message>
        <source>the chart could not be rendered</source>
        <translation>グラフを描画できませんでした</translation>
    </message>
</context>
<context>
    <name>PlannerText</name>
    <message>
        <source>Misses the target of %1 tokens/s per sequence: %2.</source>
        <translation>シーケンスあたり %1 トークン/秒の目標に届きません（%2）。</translation>
    </message>
    <message>
        <source>Misses the target of %1 to the first token: %2.</source>
        <translation>最初のトークンまで %1 という目標に届きません（%2）。</translation>
    </message>
    <message>
        <source>Does not fit in host RAM: the offloaded part needs %1; the host has %2.</source>
        <translation>ホストの RAM に収まりません：オフロード分に %1 必要ですが、搭載量は %2 です。</translation>
    </message>
    <message>
        <source>Quantize the weights to 8 bits (%1)</source>
        <translation>重みを 8 ビットに量子化（%1）</translation>
    </message>
    <message>
        <source>Quantize the weights to 4 bits (%1)</source>
        <translation>重みを 4 ビットに量子化（%1）</translation>
    </message>
    <message>
        <source>Quantize the KV cache (%1)</source>
        <translation>KV キャッシュを量子化（%1）</translation>
    </message>
    <message>
        <source>Keep %1 of %2 layers on the GPU (-ngl)</source>
        <translation>%2 層のうち %1 層を GPU に置く（-ngl）</translation>
    </message>
    <message>
        <source>Offload weights to CPU RAM (device_map=&quot;auto&quot;)</source>
        <translation>重みを CPU RAM にオフロード（device_map=&quot;auto&quot;）</translation>
    </message>
    <message>
        <source>Keep the KV cache in CPU RAM</source>
        <translation>KV キャッシュを CPU RAM に置く</translation>
    </message>
    <message>
        <source>Serve with %1 (paged KV cache)</source>
        <translation>%1 で提供（ページング方式の KV キャッシュ）</translation>
    </message>
    <message>
        <source>Shorten the context to %1</source>
        <translation>コンテキスト長を %1 に短縮</translation>
    </message>
    <message numerus="yes">
        <source>Run %n sequence(s) at once</source>
        <translation>
            <numerusform>同時実行数を %n に減らす</numerusform>
        </translation>
    </message>
    <message>
        <source>Use %1 × %2</source>
        <translation>%2 を %1 基使う</translation>
    </message>
    <message>
        <source>Use %1</source>
        <translation>%1 を使う</translation>
    </message>
    <message>
        <source>still does not fit: host RAM is %1 short (the offloaded part needs %2, the host has %3)</source>
        <translation>まだ収まりません：ホスト RAM が %1 不足（オフロード分に %2 必要、ホストは %3）</translation>
    </message>
    <message>
        <source>still does not fit: %1 short on each GPU</source>
        <translation>まだ収まりません（GPU 1 基あたり %1 不足）</translation>
    </message>
    <message>
        <source>runs</source>
        <translation>動作します</translation>
    </message>
    <message>
        <source>runs, misses a target</source>
        <translation>動作しますが目標に届きません</translation>
    </message>
    <message>
        <source>; up to %1 per sequence, %2 at once</source>
        <translation>。シーケンスあたり最大 %1、同時実行数 %2</translation>
    </message>
    <message>
        <source>; decode %1 (%2 tokens/s)</source>
        <translation>。デコード %1（%2 トークン/秒）</translation>
    </message>
    <message>
        <source>Runs: %1 of %2 per GPU.</source>
        <translation>動作します：GPU 1 基あたり %2 のうち %1 を使用。</translation>
    </message>
    <message>
        <source>Does not fit: needs %1 per GPU, %2 available; the weights alone exceed it.</source>
        <translation>収まりません：GPU 1 基あたり %1 必要、使えるのは %2。重みだけで超過しています。</translation>
    </message>
    <message>
        <source>Does not fit: needs %1 per GPU, %2 available; the activation peak overflows.</source>
        <translation>収まりません：GPU 1 基あたり %1 必要、使えるのは %2。アクティベーションのピークで超過します。</translation>
    </message>
    <message>
        <source>Does not fit: needs %1 per GPU, %2 available; the KV cache is %3 too large.</source>
        <translation>収まりません：GPU 1 基あたり %1 必要、使えるのは %2。KV キャッシュが %3 超過しています。</translation>
    </message>
    <message>
        <source>Does not start: %1 attention heads do not split evenly over %2 GPUs (tensor parallel).</source>
        <translation>起動しません：アテンションヘッド %1 個は GPU %2 基に均等に分割できません（テンソル並列）。</translation>
    </message>
    <message>
        <source>not limited by GPU memory</source>
        <translation>GPU メモリによる制限なし</translation>
    </message>
    <message>
        <source>%1 still starts and runs %2 of the %3 sequences at once; the others wait (see the serving view).</source>
        <translation>%1 は起動し、%3 シーケンスのうち %2 を同時に処理します。残りは待機します（「エンジン別の同時実行性能」を参照）。</translation>
    </message>
    <message>
        <source>; %1/h</source>
        <translation>。1 時間あたり %1</translation>
    </message>
    <message>
        <source>Keep the experts of the first %1 layers in host RAM (--n-cpu-moe %2)</source>
        <translation>先頭 %1 層のエキスパートをホスト RAM に置く（--n-cpu-moe %2）</translation>
    </message>
    <message>
        <source>Caution: a context of %1 tokens is past the model&apos;s trained maximum of %2; quality past it is not assured.</source>
        <translation>注意：コンテキスト長 %1 トークンは、モデルの学習時の最大値 %2 を超えています。この範囲での出力品質は保証されません。</translation>
    </message>
    <message>
        <source>Caution: only %1 (%2 %) of the %3 budget per GPU is left free; allocator fragmentation or a longer prompt may overflow it.</source>
        <translation>注意：GPU あたりの使用上限 %3 のうち、空きは %1（%2 %）しかありません。アロケータの断片化や長めのプロンプトで不足するおそれがあります。</translation>
    </message>
    <message>
        <source>Does not fit in host RAM: the offloaded part needs %1; %3 is usual for %2 systems (state yours under Advanced).</source>
        <translation>ホストの RAM に収まりません：オフロード分に %1 必要ですが、%2 の一般的な構成の搭載量は %3 です（実際の容量は詳細設定で指定できます）。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Caution: %1 does not run on %2 GPUs (it runs on %3); the figures are what it would take if it did.</source>
        <translation>注意：%1 は %2 の GPU では動作しません（対応: %3）。表示の数値は動作すると仮定した場合の値です。</translation>
    </message>
    <message>
        <source>Caution: %1 does not load weights in %2 (it offers %3); the figures are what it would take if it did.</source>
        <translation>注意：%1 は重みの形式 %2 を読み込めません（対応: %3）。表示の数値は読み込めると仮定した場合の値です。</translation>
    </message>
    <message>
        <source>Caution: %1 does not load a KV cache in %2 (it offers %3); the figures are what it would take if it did.</source>
        <translation>注意：%1 は KV キャッシュのデータ型 %2 に対応していません（対応: %3）。表示の数値は対応していると仮定した場合の値です。</translation>
    </message>
    <message>
        <source>Caution: %1 does not decode from a KV cache in %2 (it offers %3); the figures are what it would take if it did.</source>
        <translation>注意：%1 は KV キャッシュを %2 に置いたままデコードできません（対応: %3）。表示の数値は対応していると仮定した場合の値です。</translation>
    </message>
    <message>
        <source>Does not start: %1 KV heads and %2 GPUs (tensor parallel) do not divide one another.</source>
        <translation>起動しません：KV ヘッド数 %1 と GPU 数 %2（テンソル並列）が割り切れる関係にありません。</translation>
    </message>
    <message>
        <source>Misses the target of %1 to the first token: %2 for the last of %3 prompts sent together.</source>
        <translation>最初のトークンまでの目標 %1 を満たしません。%3 件のプロンプトを同時に送ると、最後の 1 件は %2 かかります。</translation>
    </message>
    <message>
        <source>Caution: %1 weights (%2 bits) lose accuracy: Llama 3.1&apos;s 4-bit (W4A16) checkpoints keep 97.5 % (8B) to 99.8 % (70B) of the 16-bit model&apos;s OpenLLM v1 score (Neural Magic, %3); check your own task.</source>
        <translation>注意: %1 の重み（%2 ビット）は精度が下がります。Llama 3.1 の 4 ビット（W4A16）チェックポイントは、16 ビットモデルの OpenLLM v1 スコアの 97.5 %（8B）〜 99.8 %（70B）にとどまります（Neural Magic、%3）。ご自身のタスクで確認してください。</translation>
    </message>
    <message>
        <source>Caution: a %1 KV cache (%2 bits) loses accuracy: q4_0 raised Qwen3-8B&apos;s perplexity 2.2 % over f16 and Qwen3-0.6B&apos;s 3.5-fold (%3); check your own task at your context length.</source>
        <translation>注意: %1 の KV キャッシュ（%2 ビット）は精度が下がります。q4_0 では f16 に比べ Qwen3-8B のパープレキシティが 2.2 % 上がり、Qwen3-0.6B では 3.5 倍になりました（%3）。実際のタスクとコンテキスト長で確認してください。</translation>
    </message>
    <message>
        <source>Caution: NVIDIA&apos;s GeForce driver licence does not allow datacenter deployment (2.1.3, %1); a GeForce card belongs on a desk, or with a provider licensed for it.</source>
        <translation>注意: NVIDIA の GeForce ドライバーのライセンスはデータセンターでの利用を認めていません（2.1.3、%1）。GeForce はデスクトップで使うか、利用が認められた事業者のものを使ってください。</translation>
    </message>
    <message>
        <source>lossy weights</source>
        <translation>重みの量子化で精度低下</translation>
    </message>
    <message>
        <source>lossy KV cache</source>
        <translation>KV キャッシュの量子化で精度低下</translation>
    </message>
    <message>
        <source>GeForce licence</source>
        <translation>GeForce ライセンス</translation>
    </message>
    <message>
        <source>caution</source>
        <translation>注意</translation>
    </message>
    <message>
        <source>rented GPU-hours at the catalog&apos;s on-demand prices</source>
        <translation>レンタル（オンデマンド料金の GPU&#xa0;時間）</translation>
    </message>
    <message>
        <source>owned: the purchase price over %1 years, with the host&apos;s share, power (TDP × %2 × PUE %3 × %4 USD/kWh) and colocation</source>
        <translation>所有（購入価格を %1 年で償却し、ホストの按分、電力（TDP × %2 × PUE %3 × %4 USD/kWh）、コロケーション費用を含む）</translation>
    </message>
    <message>
        <source>Quantize the weights (%1) and use %2 × %3 under %4</source>
        <translation>重みを量子化（%1）し、%4 で %3 × %2 を使う</translation>
    </message>
    <message>
        <source>%1 nodes × %2 × %3</source>
        <translation>%3 × %2 × %1 ノード</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%2 × %1</translation>
    </message>
    <message>
        <source>Shorten the context to %1, the KV cache in %2</source>
        <translation>KV キャッシュを %2 にして、コンテキスト長を %1 に短縮</translation>
    </message>
    <message>
        <source>Spread over %1 nodes of %2 × %3 under %4</source>
        <translation>%4 で %3 × %2 を %1 ノードに分散</translation>
    </message>
    <message>
        <source>TP %1</source>
        <translation>TP %1</translation>
    </message>
    <message>
        <source>DP attention</source>
        <translation>DPアテンション</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1、%2</translation>
    </message>
</context>
<context>
    <name>ReportWriter</name>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source> (imported config.json)</source>
        <translation>（インポートした config.json）</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>アーキテクチャ</translation>
    </message>
    <message>
        <source>%1 layers, %2 query heads, %3 KV heads, head_dim %4, %5</source>
        <translation>%1 レイヤー、クエリヘッド %2、KV ヘッド %3、head_dim %4、%5</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>重み</translation>
    </message>
    <message>
        <source> (%1 bits per weight)</source>
        <translation>（重みあたり %1 ビット）</translation>
    </message>
    <message>
        <source>KV cache dtype</source>
        <translation>KV キャッシュのデータ型</translation>
    </message>
    <message>
        <source> (%1 bits per element)</source>
        <translation>（要素あたり %1 ビット）</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>%1 × %2 (%3 GiB, %4)</source>
        <translation>%2 ×&#xa0;%1（%3 GiB、%4）</translation>
    </message>
    <message>
        <source>Host link</source>
        <translation>ホスト接続</translation>
    </message>
    <message>
        <source>PCIe %1.0 x%2</source>
        <translation>PCIe %1.0 x%2</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>コンテキスト長</translation>
    </message>
    <message>
        <source>Concurrent sequences</source>
        <translation>同時実行数</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>推論エンジン</translation>
    </message>
    <message>
        <source>KV cache placement</source>
        <translation>KV キャッシュの配置先</translation>
    </message>
    <message>
        <source>GPU memory fraction</source>
        <translation>GPU メモリ使用率</translation>
    </message>
    <message>
        <source>KV per token</source>
        <translation>1 トークンの KV</translation>
    </message>
    <message>
        <source>VRAM per GPU</source>
        <translation>GPU あたりの VRAM</translation>
    </message>
    <message>
        <source>fits, %1 free</source>
        <translation>収まる（空き %1）</translation>
    </message>
    <message>
        <source>overflows by %1</source>
        <translation>%1 不足</translation>
    </message>
    <message>
        <source>Decode</source>
        <translation>デコード</translation>
    </message>
    <message>
        <source>%1 per token, %2 tokens/s</source>
        <translation>1 トークンあたり %1、%2 トークン/秒</translation>
    </message>
    <message>
        <source>PCIe effective</source>
        <translation>PCIe 実効帯域</translation>
    </message>
    <message>
        <source>Longest context</source>
        <translation>最大コンテキスト長</translation>
    </message>
    <message>
        <source>Runtime overhead</source>
        <translation>ランタイムのオーバーヘッド</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>CUDA graphs</source>
        <translation>CUDA グラフ</translation>
    </message>
    <message>
        <source>KV block size</source>
        <translation>KV ブロックサイズ</translation>
    </message>
    <message>
        <source>Prefill chunk</source>
        <translation>プリフィルのチャンク</translation>
    </message>
    <message>
        <source>whole prompt</source>
        <translation>プロンプト全体</translation>
    </message>
    <message>
        <source>NVMe drive</source>
        <translation>NVMe ドライブ</translation>
    </message>
    <message>
        <source>SATA drive</source>
        <translation>SATA ドライブ</translation>
    </message>
    <message>
        <source>Host memory</source>
        <translation>ホストメモリ</translation>
    </message>
    <message>
        <source>kvscope report: %1 on %2 × %3</source>
        <translation>kvscope レポート: %1 / %3 × %2</translation>
    </message>
    <message>
        <source>the PDF could not be started</source>
        <translation>PDF を作成できませんでした</translation>
    </message>
    <message>
        <source>Generated by kvscope</source>
        <translation>kvscope で作成</translation>
    </message>
    <message>
        <source>Headline figures and the arithmetic behind them</source>
        <translation>主要な数値と計算式</translation>
    </message>
    <message>
        <source>Assumptions</source>
        <translation>前提条件</translation>
    </message>
    <message>
        <source>the report could not be rendered</source>
        <translation>レポートを描画できませんでした</translation>
    </message>
    <message>
        <source>Tensor-parallel buffers per GPU</source>
        <translation>テンソル並列の通信バッファ（GPU あたり）</translation>
    </message>
    <message>
        <source>What would make it run, in the order to try:</source>
        <translation>動かすための対策（上から順に試す）:</translation>
    </message>
    <message>
        <source>Experts in host RAM</source>
        <translation>ホスト RAM 上のエキスパート</translation>
    </message>
    <message>
        <source>%1 of %2 MoE layers, %3</source>
        <translation>MoE %2 層中 %1 層、%3</translation>
    </message>
    <message>
        <source>CPU share of a decode step</source>
        <translation>デコード 1 ステップのうち CPU の時間</translation>
    </message>
    <message>
        <source>%1 (stated)</source>
        <translation>%1（指定値）</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>シナリオの比較</translation>
    </message>
    <message>
        <source>Each figure with its change against %1; the charts draw every scenario.</source>
        <translation>各数値と %1 との差を示します。グラフにはすべてのシナリオを描いています。</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>初回トークンまでの時間</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 トークン/秒</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>概要</translation>
    </message>
    <message>
        <source>Inputs and the sources of their numbers</source>
        <translation>入力条件と数値の出典</translation>
    </message>
    <message>
        <source>does not run</source>
        <translation>動作しません</translation>
    </message>
    <message>
        <source>fits, %1 free; host RAM short by %2</source>
        <translation>VRAM には収まる（空き %1）が、ホスト RAM が %2 不足</translation>
    </message>
    <message>
        <source>KV cache per GPU</source>
        <translation>GPU 1 基あたりの KV キャッシュ</translation>
    </message>
    <message>
        <source>Measured against this</source>
        <translation>実測との差</translation>
    </message>
    <message>
        <source>Cost basis</source>
        <translation>コストの前提</translation>
    </message>
    <message>
        <source>kvscope&apos;s %1</source>
        <translation>kvscope の %1</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>ノード</translation>
    </message>
    <message>
        <source>%1 nodes over %2: tensor parallel over %3 GPUs, %4 pipeline stages</source>
        <translation>%2 で結んだ %1 ノード：%3 GPU でテンソル並列、%4 段のパイプライン並列</translation>
    </message>
    <message>
        <source>runtime overhead %1 MiB (KV cache %2 logged; %3 predicted before)</source>
        <translation>ランタイムオーバーヘッド %1 MiB（ログの KV キャッシュ容量 %2、適用前の予測 %3）</translation>
    </message>
    <message>
        <source>memory bandwidth efficiency %1 (decode %2 tokens/s measured; %3 predicted before)</source>
        <translation>メモリ帯域効率 %1（デコード実測 %2 トークン/秒、適用前の予測 %3）</translation>
    </message>
    <message>
        <source>Machine profile</source>
        <translation>マシンプロファイル</translation>
    </message>
    <message>
        <source>%1 bytes per activation element (activation peak %2 logged; %3 predicted before, %4 after)</source>
        <translation>アクティベーション 1 要素あたり %1 バイト（ログのアクティベーションのピーク %2、予測は適用前 %3・適用後 %4）</translation>
    </message>
    <message>
        <source>unbounded</source>
        <translation>上限なし</translation>
    </message>
    <message>
        <source>%1 (the model is trained to %2)</source>
        <translation>%1（モデルの学習上限は %2）</translation>
    </message>
    <message>
        <source>LoRA adapters</source>
        <translation>LoRA アダプター</translation>
    </message>
    <message>
        <source>%1 slots of rank %2 on every GPU, in the overhead</source>
        <translation>各 GPU にランク %2 のスロットを %1 個 (オーバーヘッドに計上)</translation>
    </message>
    <message>
        <source>Shared prompt prefix</source>
        <translation>共通プレフィックス</translation>
    </message>
    <message>
        <source>%1 of each %2-token prompt, %3 of them in the prefix cache</source>
        <translation>%2 トークンのプロンプトのうち先頭 %1 トークン (うち %3 トークンがプレフィックスキャッシュに載る)</translation>
    </message>
    <message>
        <source>%1 of each %2-token prompt, not cached by the engine</source>
        <translation>%2 トークンのプロンプトのうち先頭 %1 トークン (このエンジンではキャッシュされない)</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>投機的デコーディング</translation>
    </message>
    <message>
        <source>%1 MTP layers draft %2 tokens a step, each accepted at %3 (stated)</source>
        <translation>MTP レイヤー %1 層が 1 ステップに %2 トークンをドラフト、各受理率 %3 (指定値)</translation>
    </message>
    <message>
        <source>%1 tokens/s, %2× without it</source>
        <translation>%1 トークン/秒 (ドラフトなしの %2 倍)</translation>
    </message>
    <message>
        <source>%1 drafts %2 tokens a step, each accepted at %3 (stated)</source>
        <translation>%1 が 1 ステップに %2 トークンをドラフト、各受理率 %3 (指定値)</translation>
    </message>
    <message>
        <source>Decode with drafting</source>
        <translation>投機的デコーディング時のデコード</translation>
    </message>
    <message>
        <source>KV per token per GPU</source>
        <translation>GPU 1 基あたりのトークンあたり KV</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV キャッシュ</translation>
    </message>
    <message>
        <source>Weights, all %1 GPUs</source>
        <translation>重み（GPU %1 基の合計）</translation>
    </message>
    <message>
        <source>Fixed cost per decode step, this engine</source>
        <translation>デコード 1 ステップの固定コスト（このエンジン）</translation>
    </message>
    <message>
        <source>%1 layers × %2 µs + %3 µs = %4</source>
        <translation>%1 レイヤー × %2 µs + %3 µs = %4</translation>
    </message>
    <message>
        <source>Data-parallel attention</source>
        <translation>アテンションのデータ並列</translation>
    </message>
    <message>
        <source>%1 ranks: each holds whole attention and its own requests&apos; KV</source>
        <translation>%1 ランク：各ランクがアテンション全体と自分のリクエストの KV を保持</translation>
    </message>
    <message>
        <source>%1 head drafts %2 passes a step, %3 tokens a pass; the model checks %4, each accepted at %5 (stated)</source>
        <translation>%1ヘッドが1ステップに%2回ドラフトし（1回%3トークン）、モデルが%4トークンを検証。受理率%5（入力値）</translation>
    </message>
    <message>
        <source>Expert parallel</source>
        <translation>エキスパート並列</translation>
    </message>
    <message>
        <source>%1 GPUs hold whole experts, up to %2 of %3 a layer each</source>
        <translation>%1 GPU がエキスパートを丸ごと分担（1 層 %3 個のうち各 GPU 最大 %2 個）</translation>
    </message>
    <message>
        <source>%1 ranks: each holds whole attention and dense layers and its own requests&apos; KV</source>
        <translation>%1 ランク：各ランクがアテンションと非 MoE 層の全体、自分のリクエストの KV を保持</translation>
    </message>
</context>
<context>
    <name>UiText</name>
    <message>
        <source>%1 is missing. Accepted: %2</source>
        <translation>%1 が指定されていません。指定できる値: %2</translation>
    </message>
    <message>
        <source>%1: %2 is not accepted. Accepted: %3</source>
        <translation>%1: %2 は指定できません。指定できる値: %3</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 トークン</translation>
    </message>
    <message>
        <source>KV on GPU</source>
        <translation>GPU 上の KV</translation>
    </message>
    <message>
        <source>CPU RAM, serial</source>
        <translation>CPU RAM（逐次）</translation>
    </message>
    <message>
        <source>CPU RAM, pipelined</source>
        <translation>CPU RAM（パイプライン）</translation>
    </message>
    <message>
        <source>NVMe SSD</source>
        <translation>NVMe SSD</translation>
    </message>
    <message>
        <source>SATA SSD</source>
        <translation>SATA SSD</translation>
    </message>
    <message>
        <source>reload from CPU RAM</source>
        <translation>CPU RAM から再ロード</translation>
    </message>
    <message>
        <source>reload from NVMe</source>
        <translation>NVMe から再ロード</translation>
    </message>
    <message>
        <source>reload from SATA</source>
        <translation>SATA から再ロード</translation>
    </message>
    <message>
        <source>GPU VRAM</source>
        <translation>GPU の VRAM</translation>
    </message>
    <message>
        <source>CPU RAM (over PCIe)</source>
        <translation>CPU RAM（PCIe 経由）</translation>
    </message>
    <message>
        <source>MHA</source>
        <translation>MHA</translation>
    </message>
    <message>
        <source>GQA</source>
        <translation>GQA</translation>
    </message>
    <message>
        <source>MQA</source>
        <translation>MQA</translation>
    </message>
    <message>
        <source>MLA</source>
        <translation>MLA</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>レイヤー</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV ヘッド</translation>
    </message>
    <message>
        <source>head_dim</source>
        <translation>head_dim</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>トークン</translation>
    </message>
    <message>
        <source>sequences</source>
        <translation>シーケンス</translation>
    </message>
    <message>
        <source>windowed layers hold</source>
        <translation>スライディングウィンドウ層の保持分</translation>
    </message>
    <message>
        <source>latent</source>
        <translation>潜在次元</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>パラメータ</translation>
    </message>
    <message>
        <source>embeddings</source>
        <translation>埋め込み</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>重み</translation>
    </message>
    <message>
        <source>KV</source>
        <translation>KV</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>アクティベーション</translation>
    </message>
    <message>
        <source>overhead</source>
        <translation>オーバーヘッド</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空き</translation>
    </message>
    <message>
        <source>for KV</source>
        <translation>KV に使える容量</translation>
    </message>
    <message>
        <source>per token</source>
        <translation>トークンあたり</translation>
    </message>
    <message>
        <source>lanes</source>
        <translation>レーン</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>収まる</translation>
    </message>
    <message>
        <source>overflows by</source>
        <translation>超過</translation>
    </message>
    <message>
        <source>fixed</source>
        <translation>固定コスト</translation>
    </message>
    <message>
        <source>GPU link</source>
        <translation>GPU 間通信</translation>
    </message>
    <message>
        <source>CPU layers</source>
        <translation>CPU 側レイヤー</translation>
    </message>
    <message>
        <source>as CUDA reports it</source>
        <translation>が CUDA から見える容量</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>トークン/秒</translation>
    </message>
    <message>
        <source>expert parameters</source>
        <translation>エキスパートのパラメータ</translation>
    </message>
    <message>
        <source>other parameters</source>
        <translation>その他のパラメータ</translation>
    </message>
    <message>
        <source>as the GPU&apos;s MoE kernel pads them</source>
        <translation>GPU の MoE カーネルによるパディング込み</translation>
    </message>
    <message>
        <source>scales held twice</source>
        <translation>スケールを二重に保持</translation>
    </message>
    <message>
        <source> (</source>
        <comment>opens a note in a formula, e.g. &quot;12 B parameters (padded) x 4 bit&quot;</comment>
        <translation>（</translation>
    </message>
    <message>
        <source>)</source>
        <comment>closes a note in a formula</comment>
        <translation>）</translation>
    </message>
    <message>
        <source>experts on the CPU</source>
        <translation>CPU 側のエキスパート</translation>
    </message>
    <message>
        <source>MoE layers</source>
        <translation>MoE 層</translation>
    </message>
    <message>
        <source>GPU-CPU hand-overs</source>
        <translation>回の GPU・CPU 間受け渡し</translation>
    </message>
    <message>
        <source>in host RAM</source>
        <translation>ホスト RAM 側</translation>
    </message>
    <message>
        <source>unified memory</source>
        <translation>ユニファイドメモリ</translation>
    </message>
    <message>
        <source>host memory</source>
        <translation>ホストメモリ</translation>
    </message>
    <message>
        <source>per sequence</source>
        <translation>シーケンスあたり</translation>
    </message>
    <message>
        <source>recurrent state</source>
        <translation>リカレント状態</translation>
    </message>
    <message>
        <source>vision encoder</source>
        <translation>ビジョンエンコーダ</translation>
    </message>
    <message>
        <source>not limited by GPU memory: the KV cache is in CPU RAM</source>
        <translation>GPU メモリによる制限なし：KV キャッシュは CPU RAM にあります</translation>
    </message>
    <message>
        <source>not limited by GPU memory: every layer keeps at most its window, so the KV cache stops growing</source>
        <translation>GPU メモリによる制限なし：各層はウィンドウ分のトークンまでしか保持しないため、KV キャッシュはそれ以上増えません</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>プリフィル</translation>
    </message>
    <message>
        <source>first decode step</source>
        <translation>初回デコード</translation>
    </message>
    <message>
        <source>-token prompt, alone</source>
        <translation> トークンのプロンプト、単独</translation>
    </message>
    <message>
        <source>step</source>
        <translation>ステップ</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>メモリ</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>演算</translation>
    </message>
    <message>
        <source>KV read by the CPU</source>
        <translation>CPU が読む KV</translation>
    </message>
    <message>
        <source>serial</source>
        <translation>直列</translation>
    </message>
    <message>
        <source>pipelined</source>
        <translation>パイプライン</translation>
    </message>
    <message>
        <source>on the GPU</source>
        <translation>GPU 上</translation>
    </message>
    <message>
        <source>No error band: no measurement of this class (%1).</source>
        <translation>誤差幅なし：このクラスの実測値がありません（%1）。</translation>
    </message>
    <message>
        <source>No error band: only %1 of this class measured (%2).</source>
        <translation>誤差幅なし：このクラスの実測値は %1 件のみです（%2）。</translation>
    </message>
    <message>
        <source>Measured step times of this class (%1): %2 to %3 of this figure, %4 measurements.</source>
        <translation>このクラスの実測ステップ時間（%1）：この値の %2 〜 %3（実測 %4 件）。</translation>
    </message>
    <message>
        <source>all-reduces</source>
        <translation>回の all-reduce</translation>
    </message>
    <message>
        <source>per step</source>
        <translation>毎ステップ</translation>
    </message>
    <message>
        <source>latency</source>
        <translation>レイテンシ</translation>
    </message>
    <message>
        <source>no error band</source>
        <translation>誤差幅なし</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>per socket</source>
        <translation>ソケットあたり</translation>
    </message>
    <message>
        <source>%1, %2 channels</source>
        <translation>%1、%2 チャネル</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>hand-over between nodes</source>
        <translation>ノード間の受け渡し</translation>
    </message>
    <message>
        <source>hand-overs between nodes</source>
        <translation>ノード間の受け渡し</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>ノード</translation>
    </message>
    <message>
        <source>hand-over between GPUs</source>
        <translation>GPU 間の受け渡し</translation>
    </message>
    <message>
        <source>hand-overs between GPUs</source>
        <translation>GPU 間の受け渡し</translation>
    </message>
    <message>
        <source>%1 × %2 in %3 nodes</source>
        <translation>%1 × %2（%3 ノード）</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 · context %4 × %5 seq. · %6</source>
        <translation>%1・%2・%3・コンテキスト長 %4・同時実行数 %5・%6</translation>
    </message>
    <message>
        <source>output layer&apos;s copy of the embedding</source>
        <translation>出力層が持つ埋め込みのコピー</translation>
    </message>
    <message>
        <source>runtime and CUDA graphs</source>
        <translation>ランタイムと CUDA グラフ</translation>
    </message>
    <message>
        <source>LoRA slots</source>
        <translation>LoRA スロット</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>ランク</translation>
    </message>
    <message>
        <source>MTP layers</source>
        <translation>MTP レイヤー</translation>
    </message>
    <message>
        <source>the MTP layers included</source>
        <translation>MTP レイヤーを含む</translation>
    </message>
    <message>
        <source>draft model</source>
        <translation>ドラフトモデル</translation>
    </message>
    <message>
        <source>all-reduces between nodes</source>
        <translation>回のノード間 all-reduce</translation>
    </message>
    <message>
        <source>attention ranks</source>
        <translation>アテンションのランク</translation>
    </message>
    <message>
        <source>attention whole on each rank</source>
        <translation>各ランクに丸ごと置くアテンション</translation>
    </message>
    <message>
        <source>EAGLE head</source>
        <translation>EAGLEヘッド</translation>
    </message>
    <message>
        <source>experts on the fullest GPU</source>
        <translation>最も多いGPUのエキスパート超過分</translation>
    </message>
    <message>
        <source>all-to-alls (DeepEP)</source>
        <translation>回の All-to-All（DeepEP）</translation>
    </message>
    <message>
        <source>attention and dense layers whole on each rank</source>
        <translation>各ランクに丸ごと置くアテンションと非 MoE 層</translation>
    </message>
</context>
<context>
    <name>kvscope::Setting</name>
    <message>
        <source>Host RAM size</source>
        <translation>ホスト RAM 容量</translation>
    </message>
    <message>
        <source>Host memory bandwidth</source>
        <translation>ホストメモリ帯域</translation>
    </message>
    <message>
        <source>as the host memory above</source>
        <translation>上のホストメモリどおり</translation>
    </message>
    <message>
        <source>Offload weights that do not fit to CPU RAM</source>
        <translation>VRAM に収まらない重みを CPU RAM にオフロードする</translation>
    </message>
    <message>
        <source>GPU memory fraction</source>
        <translation>GPU メモリ使用率</translation>
    </message>
    <message>
        <source>Share of GPU memory the engine may use (vLLM: gpu_memory_utilization)</source>
        <translation>推論エンジンが使える GPU メモリの割合（vLLM の gpu_memory_utilization）</translation>
    </message>
    <message>
        <source>KV block size (tokens)</source>
        <translation>KV ブロックサイズ（トークン）</translation>
    </message>
    <message>
        <source>Prefill chunk (tokens, 0 = whole prompt)</source>
        <translation>プリフィルのチャンク（トークン、0 = プロンプト全体）</translation>
    </message>
    <message>
        <source>Max concurrent sequences (vLLM max_num_seqs)</source>
        <translation>最大同時実行数（vLLM の max_num_seqs）</translation>
    </message>
    <message>
        <source>as the batch</source>
        <translation>同時実行数と同じ</translation>
    </message>
    <message>
        <source>Runtime overhead</source>
        <translation>ランタイムのオーバーヘッド</translation>
    </message>
    <message>
        <source>Layers on the GPU (llama.cpp -ngl)</source>
        <translation>GPU に載せるレイヤー数（llama.cpp の -ngl）</translation>
    </message>
    <message>
        <source>all</source>
        <translation>すべて</translation>
    </message>
    <message>
        <source>Multi-GPU split</source>
        <translation>複数 GPU の分割方式</translation>
    </message>
    <message>
        <source>Tensor parallel (every layer split)</source>
        <translation>テンソル並列（各レイヤーを分割）</translation>
    </message>
    <message>
        <source>Layer split (GPUs take turns)</source>
        <translation>レイヤー分割（GPU が順番に処理）</translation>
    </message>
    <message>
        <source>Memory bandwidth efficiency</source>
        <translation>メモリ帯域の実効率</translation>
    </message>
    <message>
        <source>Compute efficiency (prefill)</source>
        <translation>演算の実効率（プリフィル）</translation>
    </message>
    <message>
        <source>PCIe protocol efficiency</source>
        <translation>PCIe プロトコル効率</translation>
    </message>
    <message>
        <source>Disk read efficiency</source>
        <translation>ディスク読み出しの実効率</translation>
    </message>
    <message>
        <source>Host memory efficiency</source>
        <translation>ホストメモリの実効率</translation>
    </message>
    <message>
        <source>Reading speed (tokens/s)</source>
        <translation>人が読む速度（トークン/秒）</translation>
    </message>
    <message>
        <source>Bytes per activation</source>
        <translation>アクティベーション 1 要素のバイト数</translation>
    </message>
    <message>
        <source>Fixed cost per layer (µs)</source>
        <translation>レイヤーあたりの固定コスト（µs）</translation>
    </message>
    <message>
        <source>Fixed cost per layer without CUDA graphs (µs)</source>
        <translation>CUDA グラフなしのレイヤーあたり固定コスト（µs）</translation>
    </message>
    <message>
        <source>GPU link efficiency (all-reduce)</source>
        <translation>GPU 間通信の実効効率（all-reduce）</translation>
    </message>
    <message>
        <source>GPU–CPU hand-over (µs)</source>
        <translation>GPU と CPU 間の受け渡し（µs）</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>チェックポイント</translation>
    </message>
    <message>
        <source>as kvscope lists it</source>
        <translation>kvscope の一覧から選ぶ</translation>
    </message>
    <message>
        <source>The checkpoint the launch command loads, in the chosen weights: a Hugging Face repository or a local path.</source>
        <translation>起動コマンドが読み込む、選んだ重み形式のチェックポイント：Hugging Face のリポジトリまたはローカルのパス。</translation>
    </message>
    <message>
        <source>All-reduce latency (µs, 0 = by link)</source>
        <translation>all-reduce レイテンシ（µs、0 = 経路別）</translation>
    </message>
    <message>
        <source>Planner&apos;s first-token bound (ms)</source>
        <translation>プランの初回トークン上限（ms）</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>推論エンジン</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>重み</translation>
    </message>
    <message>
        <source>KV cache dtype</source>
        <translation>KV キャッシュのデータ型</translation>
    </message>
    <message>
        <source>PCIe generation</source>
        <translation>PCIe 世代</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>コンテキスト長</translation>
    </message>
    <message>
        <source>Concurrent sequences</source>
        <translation>同時実行数</translation>
    </message>
    <message>
        <source>PCIe lanes</source>
        <translation>PCIe レーン数</translation>
    </message>
    <message>
        <source>KV cache placement</source>
        <translation>KV キャッシュの配置先</translation>
    </message>
    <message>
        <source>Network between nodes</source>
        <translation>ノード間ネットワーク</translation>
    </message>
    <message>
        <source>InfiniBand XDR (800 Gb/s)</source>
        <translation>InfiniBand XDR (800 Gb/s)</translation>
    </message>
    <message>
        <source>InfiniBand NDR (400 Gb/s)</source>
        <translation>InfiniBand NDR (400 Gb/s)</translation>
    </message>
    <message>
        <source>InfiniBand HDR (200 Gb/s)</source>
        <translation>InfiniBand HDR (200 Gb/s)</translation>
    </message>
    <message>
        <source>RoCE v2 (400 GbE)</source>
        <translation>RoCE v2 (400 GbE)</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>ノード数</translation>
    </message>
    <message>
        <source>Machine profile</source>
        <translation>マシンプロファイル</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>A machine profile fitted from this machine&apos;s start-up log (Tools &gt; Check a start-up log &gt; Save as machine profile). The list holds the profiles fitted on this GPU, engine and release.</source>
        <translation>このマシンの起動ログから当てはめたマシンプロファイルです(ツール &gt; 起動ログの確認 &gt; マシンプロファイルとして保存)。一覧には、この GPU・エンジン・リリースで当てはめたプロファイルが並びます。</translation>
    </message>
    <message>
        <source>Shared prompt prefix</source>
        <translation>共通プレフィックス</translation>
    </message>
    <message>
        <source>Tokens every request&apos;s prompt starts with (a system prompt, shared documents): the prefix cache skips their prefill</source>
        <translation>全リクエストのプロンプトに共通する先頭のトークン数 (システムプロンプト、共有文書)。プレフィックスキャッシュにより、これらのプレフィルは省略されます</translation>
    </message>
    <message>
        <source>Prefix caching</source>
        <translation>プレフィックスキャッシュ</translation>
    </message>
    <message>
        <source>LoRA adapters at once</source>
        <translation>同時に使う LoRA アダプター数</translation>
    </message>
    <message>
        <source>LoRA rank, largest</source>
        <translation>LoRA の最大ランク</translation>
    </message>
    <message>
        <source>Fully sharded LoRA</source>
        <translation>LoRA を完全に分割 (fully sharded)</translation>
    </message>
    <message>
        <source>Draft with MTP layers</source>
        <translation>MTP レイヤーでドラフト</translation>
    </message>
    <message>
        <source>Drafted tokens per step</source>
        <translation>1 ステップのドラフトトークン数</translation>
    </message>
    <message>
        <source>Draft acceptance rate</source>
        <translation>ドラフト受理率</translation>
    </message>
    <message>
        <source>Replicas</source>
        <translation>レプリカ数</translation>
    </message>
    <message>
        <source>Draft model</source>
        <translation>ドラフトモデル</translation>
    </message>
    <message>
        <source>Flash attention (llama.cpp)</source>
        <translation>Flash Attention を使う（llama.cpp）</translation>
    </message>
    <message>
        <source>Across nodes</source>
        <translation>ノード間の分割</translation>
    </message>
    <message>
        <source>A pipeline stage per node</source>
        <translation>ノードごとにパイプラインステージ</translation>
    </message>
    <message>
        <source>Tensor parallel over all GPUs</source>
        <translation>全 GPU でテンソル並列</translation>
    </message>
    <message>
        <source>Data-parallel attention</source>
        <translation>アテンションのデータ並列</translation>
    </message>
    <message>
        <source>Draft with an EAGLE head</source>
        <translation>EAGLEヘッドでドラフト</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>オフ</translation>
    </message>
    <message>
        <source>EAGLE</source>
        <translation>EAGLE</translation>
    </message>
    <message>
        <source>EAGLE-3</source>
        <translation>EAGLE-3</translation>
    </message>
    <message>
        <source>EAGLE tree width</source>
        <translation>EAGLEツリーの幅</translation>
    </message>
    <message>
        <source>Tokens checked per step</source>
        <translation>1ステップの検証トークン数</translation>
    </message>
    <message>
        <source>Expert parallel</source>
        <translation>エキスパート並列</translation>
    </message>
    <message>
        <source>MoE exchange</source>
        <translation>MoE の通信方式</translation>
    </message>
    <message>
        <source>All-reduce</source>
        <translation>All-Reduce</translation>
    </message>
    <message>
        <source>DeepEP all-to-all</source>
        <translation>DeepEP の All-to-All</translation>
    </message>
    <message>
        <source>Compute efficiency (MoE models)</source>
        <translation>演算の実効率（MoE モデル）</translation>
    </message>
    <message>
        <source>MoE efficiency on ROCm (AMD)</source>
        <translation>MoE の実効率（ROCm、AMD）</translation>
    </message>
    <message>
        <source>Attention ranks</source>
        <translation>アテンションのランク数</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::BreakevenChart</name>
    <message>
        <source>Reload a saved KV cache vs recompute it</source>
        <translation>保存済み KV キャッシュの再ロードと再計算の比較</translation>
    </message>
    <message>
        <source>Prompt length (tokens)</source>
        <translation>プロンプト長（トークン）</translation>
    </message>
    <message>
        <source>recompute (prefill)</source>
        <translation>再計算（プリフィル）</translation>
    </message>
    <message>
        <source>%1 wins from %2</source>
        <translation>%1が有利: %2以上</translation>
    </message>
    <message>
        <source>Prompt %1</source>
        <translation>プロンプト %1</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>再計算</translation>
    </message>
    <message>
        <source>%1, recompute: %2</source>
        <translation>%1、再計算: %2</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>初回トークンまでの時間</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::CalibrationDialog</name>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 トークン/秒</translation>
    </message>
    <message>
        <source>No value of this factor reaches %1: for this scenario kvscope can predict from %2 to %3. Check the model, GPU, weights and context against what you measured.</source>
        <translation>この係数をどう合わせても %1 には届きません。このシナリオで kvscope が予測できるのは %2 ～ %3 の範囲です。モデル、GPU、重み形式、コンテキスト長が実測時の条件と合っているか確認してください。</translation>
    </message>
    <message>
        <source>Engine runtime overhead</source>
        <translation>エンジンのランタイムオーバーヘッド</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>調整前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>調整後</translation>
    </message>
    <message>
        <source>Predicted decode speed</source>
        <translation>デコード速度の予測値</translation>
    </message>
    <message>
        <source>Predicted GPU KV cache size</source>
        <translation>GPU KV キャッシュサイズの予測値</translation>
    </message>
    <message>
        <source>Calibrate to a measurement</source>
        <translation>実測値によるキャリブレーション</translation>
    </message>
    <message>
        <source>Type a figure you measured for the current scenario (%1 on %2 × %3, %4 tokens). kvscope fits the factor behind it, shows the prediction before and after, and keeps the fitted value in the scenario file.</source>
        <translation>現在のシナリオ（%1、%2 × %3、%4 トークン）で実測した値を入力してください。kvscope はその値を決める係数を合わせ込み、調整前後の予測値を表示します。合わせ込んだ値はシナリオファイルに保存されます。</translation>
    </message>
    <message>
        <source>What you measured</source>
        <translation>実測した項目</translation>
    </message>
    <message>
        <source>Measured value</source>
        <translation>実測値</translation>
    </message>
    <message>
        <source>Decode speed (tokens per second)</source>
        <translation>デコード速度（トークン/秒）</translation>
    </message>
    <message>
        <source>GPU KV cache size logged by vLLM (tokens)</source>
        <translation>vLLM のログに出る GPU KV キャッシュサイズ（トークン）</translation>
    </message>
    <message>
        <source> tokens/s</source>
        <translation> トークン/秒</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> トークン</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>適用</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ChartBase</name>
    <message>
        <source>%1, %2</source>
        <translation>%1、%2</translation>
    </message>
    <message>
        <source>This scenario does not run: the weights alone do not fit in the GPU memory, so no context length runs.</source>
        <translation>このシナリオは動作しません：重みだけで GPU メモリに収まらないため、どのコンテキスト長でも動きません。</translation>
    </message>
    <message>
        <source>This scenario does not run: the weights, activations and runtime overhead fill the GPU memory and leave none for the KV cache.</source>
        <translation>このシナリオは動作しません：重み、アクティベーション、ランタイムのオーバーヘッドで GPU メモリが埋まり、KV キャッシュに使える領域が残りません。</translation>
    </message>
    <message>
        <source>This scenario does not run: the KV cache of %1 sequences of %2 tokens does not fit in the memory left for it.</source>
        <translation>このシナリオは動作しません：同時実行数 %1、コンテキスト長 %2 トークンの KV キャッシュが、残りのメモリに収まりません。</translation>
    </message>
    <message>
        <source>This scenario does not run: the host RAM cannot hold what is offloaded to it.</source>
        <translation>このシナリオは動作しません：オフロードした分を載せるにはホスト RAM が足りません。</translation>
    </message>
    <message>
        <source>This scenario does not run: %1 GPUs do not divide the attention heads evenly, so the engine refuses to start.</source>
        <translation>このシナリオは動作しません：アテンションヘッドを GPU %1 基に均等に分割できないため、エンジンが起動しません。</translation>
    </message>
    <message>
        <source>This scenario does not run.</source>
        <translation>このシナリオは動作しません。</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ComparePage</name>
    <message>
        <source>Pin current scenario</source>
        <translation>現在のシナリオを固定</translation>
    </message>
    <message>
        <source>Keep the scenario as it is now beside the live one (up to four: A to D)</source>
        <translation>今のシナリオを比較用に残し、編集中のシナリオと並べて表示します（最大 4 件：A～D）</translation>
    </message>
    <message>
        <source>Rename...</source>
        <translation>名前を変更...</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>固定を解除</translation>
    </message>
    <message>
        <source>Unpin all</source>
        <translation>すべて解除</translation>
    </message>
    <message>
        <source>Copy as text</source>
        <translation>テキストでコピー</translation>
    </message>
    <message>
        <source>Copy as Markdown</source>
        <translation>Markdown でコピー</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>編集中</translation>
    </message>
    <message>
        <source>Rename pinned scenario</source>
        <translation>固定したシナリオの名前を変更</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名前:</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>動作可否</translation>
    </message>
    <message>
        <source>KV per token (per GPU)</source>
        <translation>トークンあたりの KV（GPU あたり）</translation>
    </message>
    <message>
        <source>KV cache (per GPU)</source>
        <translation>KV キャッシュ（GPU あたり）</translation>
    </message>
    <message>
        <source>VRAM needed (per GPU)</source>
        <translation>必要な VRAM（GPU あたり）</translation>
    </message>
    <message>
        <source>VRAM free (per GPU)</source>
        <translation>VRAM の空き（GPU あたり）</translation>
    </message>
    <message>
        <source>Longest context per sequence</source>
        <translation>シーケンスあたりの最大コンテキスト長</translation>
    </message>
    <message>
        <source>Sequences at this context</source>
        <translation>このコンテキスト長での同時実行数</translation>
    </message>
    <message>
        <source>Decode time per token</source>
        <translation>1 トークンあたりのデコード時間</translation>
    </message>
    <message>
        <source>Output tokens/s (all sequences)</source>
        <translation>出力トークン/秒（全シーケンス合計）</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>初回トークンまでの時間</translation>
    </message>
    <message>
        <source>Cost per hour</source>
        <translation>1 時間あたりのコスト</translation>
    </message>
    <message>
        <source>Cost per million output tokens</source>
        <translation>出力 100 万トークンあたりのコスト</translation>
    </message>
    <message>
        <source>Nothing is pinned yet. Pin the scenario, change it, and every figure shows the change against A.</source>
        <translation>まだ何も固定していません。シナリオを固定してから条件を変えると、各数値に A との差が表示されます。</translation>
    </message>
    <message>
        <source>Changes are against %1. Double-click a pinned scenario&apos;s name to rename it.</source>
        <translation>差分は %1 を基準にしています。固定したシナリオの名前はダブルクリックで変更できます。</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>動作する</translation>
    </message>
    <message>
        <source>no</source>
        <translation>動作しない</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>注記</translation>
    </message>
    <message>
        <source>The scenarios are of different models.</source>
        <translation>比較しているシナリオはモデルが異なります。</translation>
    </message>
    <message>
        <source>Pin scenario files</source>
        <translation>固定するシナリオファイル</translation>
    </message>
    <message>
        <source>kvscope scenario (*.kvscope.json *.json)</source>
        <translation>kvscope シナリオ (*.kvscope.json *.json)</translation>
    </message>
    <message>
        <source>pinned scenarios</source>
        <translation>固定したシナリオ</translation>
    </message>
    <message>
        <source>at most %1</source>
        <translation>最大 %1 件</translation>
    </message>
    <message>
        <source>Cannot pin</source>
        <translation>固定できません</translation>
    </message>
    <message>
        <source>Nothing was pinned; the comparison is unchanged.
%1</source>
        <translation>何も固定していません。比較の内容はそのままです。
%1</translation>
    </message>
    <message>
        <source>Pin a file...</source>
        <translation>ファイルから固定...</translation>
    </message>
    <message>
        <source>Pin saved scenarios beside the live one without opening them</source>
        <translation>保存済みのシナリオを開かずに、編集中のシナリオの横に固定します</translation>
    </message>
    <message>
        <source>Cost per million prompt tokens</source>
        <translation>プロンプト 100 万トークンあたりのコスト</translation>
    </message>
    <message>
        <source>default</source>
        <translation>既定値</translation>
    </message>
    <message>
        <source>Weights (in all, host RAM too)</source>
        <translation>重み（合計、ホスト RAM 分も含む）</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ContextControl</name>
    <message>
        <source> tokens</source>
        <translation> トークン</translation>
    </message>
    <message>
        <source>Beyond the model&apos;s trained maximum of %1 tokens</source>
        <translation>モデルの最大コンテキスト長 %1 トークンを超えています</translation>
    </message>
    <message>
        <source>Model maximum: %1 tokens</source>
        <translation>モデルの最大コンテキスト長: %1 トークン</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::CustomGpuDialog</name>
    <message>
        <source>Custom GPU</source>
        <translation>カスタム GPU</translation>
    </message>
    <message>
        <source>Unified memory (CPU and GPU share it)</source>
        <translation>ユニファイドメモリ（CPU と GPU で共有）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>メモリ</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>メモリ帯域幅</translation>
    </message>
    <message>
        <source>FP16 tensor (dense)</source>
        <translation>FP16 Tensor 性能（密）</translation>
    </message>
    <message>
        <source>FP8 tensor (dense, 0 = none)</source>
        <translation>FP8 Tensor 性能（密、0 = 非対応）</translation>
    </message>
    <message>
        <source>Host link</source>
        <translation>ホスト接続</translation>
    </message>
    <message>
        <source>not an NVIDIA GPU</source>
        <translation>NVIDIA GPU 以外</translation>
    </message>
    <message>
        <source>CUDA compute capability, as NVIDIA lists it: 8.0 A100, 8.9 RTX 4090 and L40S, 9.0 H100, 10.0 B200, 12.0 RTX 5090.</source>
        <translation>NVIDIA が公開している CUDA の Compute Capability です。例: A100 は 8.0、RTX 4090 と L40S は 8.9、H100 は 9.0、B200 は 10.0、RTX 5090 は 12.0。</translation>
    </message>
    <message>
        <source>Compute capability</source>
        <translation>Compute Capability</translation>
    </message>
    <message>
        <source>No price</source>
        <translation>価格なし</translation>
    </message>
    <message>
        <source>Rented, per GPU-hour</source>
        <translation>レンタル（GPU 1 基・1 時間あたり）</translation>
    </message>
    <message>
        <source>Bought, per GPU</source>
        <translation>購入（GPU 1 基あたり）</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>価格</translation>
    </message>
    <message>
        <source>Memory type</source>
        <translation>メモリの種類</translation>
    </message>
    <message>
        <source>HBM (stacked on the package)</source>
        <translation>HBM（パッケージ上に積層）</translation>
    </message>
    <message>
        <source>GDDR</source>
        <translation>GDDR</translation>
    </message>
    <message>
        <source>LPDDR (unified memory)</source>
        <translation>LPDDR（ユニファイドメモリ）</translation>
    </message>
    <message>
        <source>Not stated</source>
        <translation>記載なし</translation>
    </message>
    <message>
        <source>On a GPU with HBM (V100, A100, H100, MI300X) llama.cpp spends more time per layer than its reads take.</source>
        <translation>HBM を積んだ GPU（V100、A100、H100、MI300X）では、llama.cpp は層ごとに読み出し時間を超える時間がかかります。</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::DecodeLatencyChart</name>
    <message>
        <source>Decode time per token by KV placement</source>
        <translation>KV キャッシュの配置別 1 トークンあたりのデコード時間</translation>
    </message>
    <message>
        <source>Context length (tokens)</source>
        <translation>コンテキスト長（トークン）</translation>
    </message>
    <message>
        <source>slower than reading speed (%1 tokens/s per sequence)</source>
        <translation>人が読む速度より遅い領域（シーケンスあたり %1 トークン/秒）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Context %1</source>
        <translation>コンテキスト %1</translation>
    </message>
    <message>
        <source>%1: %2 (%3 tokens/s)</source>
        <translation>%1: %2（%3 トークン/秒）</translation>
    </message>
    <message>
        <source>%1: does not fit</source>
        <translation>%1：収まりません</translation>
    </message>
    <message>
        <source>%1 (%2): %3 (%4 tokens/s)</source>
        <translation>%1（%2）: %3（%4 トークン/秒）</translation>
    </message>
    <message>
        <source>slower than reading speed
(%1 tokens/s per sequence)</source>
        <translation>人が読む速度より遅い領域
（シーケンスあたり %1 トークン/秒）</translation>
    </message>
    <message>
        <source>Time per decode step</source>
        <translation>デコード 1 ステップの時間</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::EngineReleaseControl</name>
    <message>
        <source>latest (%1)</source>
        <translation>最新（%1）</translation>
    </message>
    <message>
        <source>any release</source>
        <translation>バージョン指定なし</translation>
    </message>
    <message>
        <source>The engine release whose memory rules apply: vLLM&apos;s accounting of CUDA graphs, its sampler and its batch defaults changed between releases. Type any release to match your own logs.</source>
        <translation>メモリ計算に適用するエンジンのバージョンです。vLLM では CUDA グラフの計上方法、サンプラー、バッチのデフォルト値がバージョンごとに異なります。お手元のログと突き合わせる場合は、任意のバージョンを入力してください。</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ExpertOffloadControl</name>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>llama.cpp --n-cpu-moe: the routed experts of the first N layers stay in host RAM and the CPU computes them; attention, the KV cache and the shared experts stay on the GPU</source>
        <translation>llama.cpp の --n-cpu-moe：先頭 N 層のルーティングされるエキスパートをホスト RAM に置き、CPU で計算します。アテンション、KV キャッシュ、共有エキスパートは GPU に残ります</translation>
    </message>
    <message>
        <source>all (--cpu-moe)</source>
        <translation>すべて（--cpu-moe）</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>収まる値に</translation>
    </message>
    <message>
        <source>Set the fewest layers whose experts must move to host RAM for this context to fit</source>
        <translation>このコンテキスト長で VRAM に収まるよう、エキスパートをホスト RAM に移す層の最小数を設定します</translation>
    </message>
    <message>
        <source>Does not fit even with every expert in host RAM.</source>
        <translation>全エキスパートをホスト RAM に移しても収まりません。</translation>
    </message>
    <message>
        <source>Fits with every expert on the GPU.</source>
        <translation>全エキスパートを GPU に置いたまま収まります。</translation>
    </message>
    <message>
        <source>Fits from --n-cpu-moe %1 at %2.</source>
        <translation>%2 では --n-cpu-moe %1 以上で収まります。</translation>
    </message>
    <message>
        <source>The GPU fits from --n-cpu-moe %1 at %2, but the host RAM is %3 short.</source>
        <translation>%2 では --n-cpu-moe %1 以上で GPU には収まりますが、ホスト RAM が %3 不足します。</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::FetchProgressDialog</name>
    <message>
        <source>Import from Hugging Face</source>
        <translation>Hugging Face からインポート</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Fetching the config.json of %1 from the Hugging Face Hub...</source>
        <translation>%1 の config.json を Hugging Face Hub から取得しています...</translation>
    </message>
    <message>
        <source>%1 received</source>
        <translation>%1 受信済み</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::FitMatrixChart</name>
    <message>
        <source>Fits (×N: sequences of this context at once)</source>
        <translation>収まる（×N: このコンテキスト長で同時に動かせるシーケンス数）</translation>
    </message>
    <message>
        <source>Fits only a shorter context (≤ tokens per sequence)</source>
        <translation>短いコンテキストなら収まる（≤ シーケンスあたりのトークン数）</translation>
    </message>
    <message>
        <source>Does not fit</source>
        <translation>収まらない</translation>
    </message>
    <message>
        <source>%1 · %2 GiB</source>
        <translation>%1 · %2 GiB</translation>
    </message>
    <message>
        <source>×%1</source>
        <translation>×%1</translation>
    </message>
    <message>
        <source>≤%1</source>
        <translation>≤%1</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%2 上の %1</translation>
    </message>
    <message>
        <source>%1
Fits: %2 sequences of %3 tokens at once; up to %4 tokens per sequence</source>
        <translation>%1
収まります：%3 トークンのシーケンスで同時実行数 %2。シーケンスあたり最大 %4 トークン</translation>
    </message>
    <message>
        <source>%1
Fits only up to %2 tokens per sequence (asked: %3)</source>
        <translation>%1
シーケンスあたり %2 トークンまでなら収まります（指定: %3）</translation>
    </message>
    <message>
        <source>%1
Does not fit: the weights and the engine leave no room for the KV cache</source>
        <translation>%1
収まりません：重みとエンジンの確保分で KV キャッシュの空きがありません</translation>
    </message>
    <message>
        <source>What fits where</source>
        <translation>どのモデルがどの GPU に収まるか</translation>
    </message>
    <message>
        <source>≤%1K</source>
        <translation>≤%1K</translation>
    </message>
    <message>
        <source>×%1K</source>
        <translation>×%1K</translation>
    </message>
    <message>
        <source>%1 of %2 models, nearest in size; %3 of %4 columns (the CSV holds all)</source>
        <translation>サイズの近い %1/%2 モデル、%3/%4 列を表示（CSV は全件）</translation>
    </message>
    <message>
        <source>one sequence</source>
        <translation>1 シーケンス</translation>
    </message>
    <message>
        <source>%1 sequences</source>
        <translation>%1 シーケンス</translation>
    </message>
    <message>
        <source>Weight formats on one %1, at %2 tokens, %3</source>
        <translation>%1 1 基での重みの形式、%2 トークン × %3</translation>
    </message>
    <message>
        <source>One GPU of each kind, at %1 tokens, %2</source>
        <translation>各 GPU 1 基、%1 トークン × %2</translation>
    </message>
    <message>
        <source>%1 GPUs of each kind, at %2 tokens, %3</source>
        <translation>各 GPU %1 基、%2 トークン × %3</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>収まる</translation>
    </message>
    <message>
        <source>Fits only a shorter context</source>
        <translation>短いコンテキストなら収まる</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::HeadlineBar</name>
    <message>
        <source>KV per token</source>
        <translation>1 トークンの KV</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>重み</translation>
    </message>
    <message>
        <source>VRAM</source>
        <translation>VRAM</translation>
    </message>
    <message>
        <source>Decode</source>
        <translation>デコード</translation>
    </message>
    <message>
        <source>Longest context</source>
        <translation>最大コンテキスト長</translation>
    </message>
    <message>
        <source>%1 per layer</source>
        <translation>レイヤーあたり %1</translation>
    </message>
    <message>
        <source>%1 × %2 seq.</source>
        <translation>%1 × %2 シーケンス</translation>
    </message>
    <message>
        <source>%1 params, %2</source>
        <translation>%1 パラメータ、%2</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>収まる</translation>
    </message>
    <message>
        <source>%1 free</source>
        <translation>空き %1</translation>
    </message>
    <message>
        <source>Overflows</source>
        <translation>不足</translation>
    </message>
    <message>
        <source>by %1</source>
        <translation>%1 超過</translation>
    </message>
    <message>
        <source>unbounded</source>
        <translation>上限なし</translation>
    </message>
    <message>
        <source>tokens per sequence</source>
        <translation>シーケンスあたりのトークン数</translation>
    </message>
    <message>
        <source>does not run</source>
        <translation>動作しません</translation>
    </message>
    <message>
        <source>%1 per GPU, %2 in host RAM</source>
        <translation>GPU あたり %1、ホスト RAM に %2</translation>
    </message>
    <message>
        <source>%1 vs %2</source>
        <translation>%2 比 %1</translation>
    </message>
    <message>
        <source>Tight</source>
        <translation>余裕なし</translation>
    </message>
    <message>
        <source>per sequence; the model is trained to %1</source>
        <translation>1 シーケンスあたり（学習時の上限&#xa0;%1）</translation>
    </message>
    <message>
        <source>Time to first token: %1</source>
        <translation>初回トークンまでの時間（TTFT）：%1</translation>
    </message>
    <message>
        <source>; past the model&apos;s %1</source>
        <translation>。モデルの学習上限 %1 を超過</translation>
    </message>
    <message>
        <source>per GPU; </source>
        <translation>GPU あたり、</translation>
    </message>
    <message>
        <source>all %1 GPUs; </source>
        <translation>GPU %1 基合計、</translation>
    </message>
    <message>
        <source>Host RAM short</source>
        <translation>ホスト RAM 不足</translation>
    </message>
    <message>
        <source>by %1; VRAM has %2 free</source>
        <translation>%1 不足（VRAM の空きは %2）</translation>
    </message>
    <message>
        <source>no context runs</source>
        <translation>どのコンテキスト長でも動作しません</translation>
    </message>
    <message>
        <source>the longest that runs, at one sequence</source>
        <translation>1 シーケンス時の最長</translation>
    </message>
    <message>
        <source>the longest that runs, at %1 sequences</source>
        <translation>%1 シーケンス時の最長</translation>
    </message>
    <message>
        <source>Measured first tokens of a prompt alone (one user): %1.</source>
        <translation>単独プロンプト（同時実行数 1）の初回トークン実測との差: %1。</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 トークン/秒</translation>
    </message>
    <message>
        <source>%1; first token in %2</source>
        <translation>%1、TTFT&#xa0;%2</translation>
    </message>
    <message>
        <source>%1 tokens/s (drafting %2)</source>
        <translation>%1 トークン/秒 (ドラフト時 %2)</translation>
    </message>
    <message>
        <source>With speculative decoding: %1</source>
        <translation>投機的デコーディング時: %1</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV キャッシュ</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation>（全&#xa0;%1&#xa0;のうち）</translation>
    </message>
    <message>
        <source>%1 on each of %2 GPUs; </source>
        <translation>GPU %2 基の各々に %1、</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::KvGrowthChart</name>
    <message>
        <source>KV cache vs context length</source>
        <translation>コンテキスト長と KV キャッシュ</translation>
    </message>
    <message>
        <source>Context length (tokens)</source>
        <translation>コンテキスト長（トークン）</translation>
    </message>
    <message>
        <source>MHA (%1 KV heads)</source>
        <translation>MHA（KV ヘッド %1）</translation>
    </message>
    <message>
        <source>GQA (%1 KV heads)</source>
        <translation>GQA（KV ヘッド %1）</translation>
    </message>
    <message>
        <source>MQA (1 KV head)</source>
        <translation>MQA（KV ヘッド 1）</translation>
    </message>
    <message>
        <source>MLA latent (this model)</source>
        <translation>MLA 潜在キャッシュ（このモデル）</translation>
    </message>
    <message>
        <source> (this model)</source>
        <translation>（このモデル）</translation>
    </message>
    <message>
        <source>free for KV: %1</source>
        <translation>KV に使える空き: %1</translation>
    </message>
    <message>
        <source>Context %1</source>
        <translation>コンテキスト %1</translation>
    </message>
    <message>
        <source>no memory left for KV</source>
        <translation>KV に使える空きなし</translation>
    </message>
    <message>
        <source>KV cache size</source>
        <translation>KV キャッシュ容量</translation>
    </message>
    <message>
        <source>%1: free for KV</source>
        <translation>%1：KV に使える空き</translation>
    </message>
    <message>
        <source>GPU free: %1</source>
        <translation>GPU の空き: %1</translation>
    </message>
    <message>
        <source>%1: up to %2 tokens</source>
        <translation>%1：最大 %2 トークン</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::LogCheckDialog</name>
    <message>
        <source>Open a start-up log</source>
        <translation>起動ログを開く</translation>
    </message>
    <message>
        <source>Logs (*.log *.txt);;All files (*)</source>
        <translation>ログ (*.log *.txt);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>GPU memory (one GPU)</source>
        <translation>GPU メモリ(GPU 1 基)</translation>
    </message>
    <message>
        <source>Memory budget (one GPU)</source>
        <translation>使用可能メモリ(GPU 1 基)</translation>
    </message>
    <message>
        <source>Weights (one GPU)</source>
        <translation>重み(GPU 1 基)</translation>
    </message>
    <message>
        <source>Non-torch memory (one GPU)</source>
        <translation>PyTorch 外のメモリ(GPU 1 基)</translation>
    </message>
    <message>
        <source>Activation peak (one GPU)</source>
        <translation>アクティベーションのピーク(GPU 1 基)</translation>
    </message>
    <message>
        <source>Memory for the KV cache (one GPU)</source>
        <translation>KV キャッシュ用メモリ(GPU 1 基)</translation>
    </message>
    <message>
        <source>KV cache size (tokens)</source>
        <translation>KV キャッシュ容量(トークン)</translation>
    </message>
    <message>
        <source>KV cache blocks (one GPU)</source>
        <translation>KV キャッシュのブロック数(GPU 1 基)</translation>
    </message>
    <message>
        <source>Maximum concurrency</source>
        <translation>最大同時実行数</translation>
    </message>
    <message>
        <source>CUDA graphs (one GPU)</source>
        <translation>CUDA グラフ(GPU 1 基)</translation>
    </message>
    <message>
        <source>Weights on the GPUs</source>
        <translation>GPU 上の重み</translation>
    </message>
    <message>
        <source>Weights in host RAM</source>
        <translation>ホスト RAM 上の重み</translation>
    </message>
    <message>
        <source>KV cache buffers</source>
        <translation>KV キャッシュのバッファ</translation>
    </message>
    <message>
        <source>Compute buffers on the GPUs</source>
        <translation>GPU 上の計算バッファ</translation>
    </message>
    <message>
        <source>Layers on the GPUs</source>
        <translation>GPU に載せた層</translation>
    </message>
    <message>
        <source>Paste a log above, drop a log file here, or open one.</source>
        <translation>上にログを貼り付けるか、ログファイルをここにドロップするか、ファイルを開いてください。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 on %3 × %4, %5, %6 per sequence</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2、%3 × %4、%5、シーケンスあたり %6</translation>
    </message>
    <message>
        <source>The file holds %1 start-ups; the last one is read.</source>
        <translation>ファイルには %1 回分の起動が含まれています。最後の起動を読み取りました。</translation>
    </message>
    <message>
        <source>Settings read from the log: %1</source>
        <translation>ログから読み取った設定: %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>The log states no memory figure to compare.</source>
        <translation>ログには比較できるメモリの数値がありません。</translation>
    </message>
    <message>
        <source>No engine overhead reaches the logged KV cache size of %1 for this scenario.</source>
        <translation>このシナリオでは、エンジンのオーバーヘッドをどう合わせても、ログの KV キャッシュ容量 %1 に届きません。</translation>
    </message>
    <message>
        <source>Check a start-up log</source>
        <translation>起動ログの確認</translation>
    </message>
    <message>
        <source>Paste the start-up log of vLLM, llama.cpp (or ollama) or TGI, or drop the file here. kvscope reads the settings it states, builds that scenario and puts each memory figure the engine logged beside its own prediction.</source>
        <translation>vLLM、llama.cpp(ollama を含む)、TGI の起動ログを貼り付けるか、ファイルをここにドロップしてください。kvscope はログに記載された設定を読み取ってシナリオを組み立て、エンジンが出力したメモリの各数値を kvscope の予測と並べて表示します。</translation>
    </message>
    <message>
        <source>Open a log file...</source>
        <translation>ログファイルを開く...</translation>
    </message>
    <message>
        <source>INFO ... GPU KV cache size: 75,840 tokens</source>
        <translation>INFO ... GPU KV cache size: 75,840 tokens</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>項目</translation>
    </message>
    <message>
        <source>Logged</source>
        <translation>ログの値</translation>
    </message>
    <message>
        <source>kvscope</source>
        <translation>kvscope</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Use this scenario</source>
        <translation>このシナリオを使う</translation>
    </message>
    <message>
        <source>Calibrate to this log</source>
        <translation>このログに合わせて校正</translation>
    </message>
    <message>
        <source>Uses the scenario and fits the engine&apos;s runtime overhead so that kvscope&apos;s KV cache size equals the logged one.</source>
        <translation>このシナリオを使い、kvscope の KV キャッシュ容量がログの値と一致するよう、エンジンのランタイムオーバーヘッドを合わせ込みます。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <source>The log does not state vLLM&apos;s release: the rules of kvscope&apos;s default release apply.</source>
        <translation>ログに vLLM のリリースの記載がないため、kvscope の既定リリースの規則を適用しています。</translation>
    </message>
    <message>
        <source>vLLM %1 is outside the releases kvscope models: the rules of its default release apply.</source>
        <translation>vLLM %1 は kvscope がモデル化しているリリースの範囲外のため、既定リリースの規則を適用しています。</translation>
    </message>
    <message>
        <source>Model: the log names none; the window&apos;s %1 is used.</source>
        <translation>モデル: ログに記載がないため、ウィンドウの %1 を使います。</translation>
    </message>
    <message>
        <source>Model: &quot;%1&quot; is not in the catalog; the window&apos;s imported %2 is used.</source>
        <translation>モデル: 「%1」はカタログにないため、ウィンドウでインポートした %2 を使います。</translation>
    </message>
    <message>
        <source>GPU: the log names none; the window&apos;s %1 is used.</source>
        <translation>GPU: ログに記載がないため、ウィンドウの %1 を使います。</translation>
    </message>
    <message>
        <source>GPU: &quot;%1&quot; is not in the catalog; the window&apos;s %2 is used.</source>
        <translation>GPU: 「%1」はカタログにないため、ウィンドウの %2 を使います。</translation>
    </message>
    <message>
        <source>The log&apos;s lines are vLLM V0&apos;s and state no release: the rules of %1, the last release with V0, apply.</source>
        <translation>ログの行は vLLM V0 のものでリリースの記載がないため、V0 を含む最後のリリース %1 の規則を適用しています。</translation>
    </message>
    <message>
        <source>The model is not in the catalog: its shape is the metadata the log prints (line %1).</source>
        <translation>モデルがカタログにないため、ログに出力されたメタデータ（%1 行目）からモデルの構成を読み取りました。</translation>
    </message>
    <message>
        <source>The log names no GPU the catalog has: a GPU of the memory it states stands in.</source>
        <translation>ログの GPU はカタログにないため、ログに記載されたメモリ容量の GPU として扱います。</translation>
    </message>
    <message>
        <source>The log names no GPU the catalog has: figures that depend on the GPU are not predicted.</source>
        <translation>ログの GPU はカタログにないため、GPU に依存する数値は予測していません。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: the log names no model and does not print its shape, so only what it states is listed. Choose or import the model in the window to compare.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: ログにモデル名も構成も記載がないため、ログの数値だけを表示しています。比較するには、ウィンドウでモデルを選ぶかインポートしてください。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: the catalog has no model &quot;%2&quot; and the log does not print its shape, so only what it states is listed. Import its config.json or GGUF file in the window to compare.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: モデル「%2」はカタログになく、ログにも構成の記載がないため、ログの数値だけを表示しています。比較するには、ウィンドウでその config.json か GGUF ファイルをインポートしてください。</translation>
    </message>
    <message>
        <source>Save as machine profile</source>
        <translation>マシンプロファイルとして保存</translation>
    </message>
    <message>
        <source>Name (letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;):</source>
        <translation>名前（英数字と「.」「_」「-」）:</translation>
    </message>
    <message>
        <source>%1 could not be written: %2</source>
        <translation>%1 に書き込めませんでした: %2</translation>
    </message>
    <message>
        <source>Save as machine profile...</source>
        <translation>マシンプロファイルとして保存...</translation>
    </message>
    <message>
        <source>an unnamed GPU</source>
        <translation>名前の不明な GPU</translation>
    </message>
    <message>
        <source>Decode (tokens/s, one sequence)</source>
        <translation>デコード（トークン/秒、1 シーケンス）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: the catalog has no model &quot;%2&quot;, so only what the log states is listed. &lt;i&gt;Read the model from Hugging Face&lt;/i&gt; (or import its config.json in the window) to compare.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: カタログにモデル「%2」がないため、ログに書かれた値だけを一覧にしています。比較するには&lt;i&gt;Hugging Face からモデルを読み込む&lt;/i&gt;か、ウィンドウでその config.json をインポートしてください。</translation>
    </message>
    <message>
        <source>Reading %1 from Hugging Face...</source>
        <translation>Hugging Face から %1 を読み込んでいます...</translation>
    </message>
    <message>
        <source>Read the model from Hugging Face</source>
        <translation>Hugging Face からモデルを読み込む</translation>
    </message>
    <message>
        <source>Reads the config.json of the model the log names from the Hugging Face Hub (or kvscope&apos;s copy of it) into the window, and checks the log against it.</source>
        <translation>ログに書かれたモデルの config.json を Hugging Face Hub (または kvscope が保存したコピー) からウィンドウに読み込み、そのモデルでログを確認します。</translation>
    </message>
    <message>
        <source>Fits kvscope to what the log states (the activation peak, the KV cache size, the decode speed), saves the fit under a name for this GPU and engine, and uses it. Other scenarios on this machine take it from the Machine profile list or with --profile NAME.</source>
        <translation>ログに書かれた値 (アクティベーションのピーク、KV キャッシュのサイズ、デコード速度) に kvscope を当てはめ、この GPU とエンジン用に名前を付けて保存し、適用します。このマシンの他のシナリオでは、マシンプロファイルの一覧か --profile NAME で使えます。</translation>
    </message>
    <message>
        <source>The model is not in the catalog: its shape is the metadata the log prints (line %1), its weights the file size it prints (line %2).</source>
        <translation>モデルがカタログにないため、ログに出力されたメタデータ（%1 行目）からモデルの構成を、ファイルサイズ（%2 行目）から重みを読み取りました。</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::MainWindow</name>
    <message>
        <source>Imported %1</source>
        <translation>%1 をインポートしました</translation>
    </message>
    <message>
        <source>%1 could not be written: %2. The previous file, if any, is unchanged.</source>
        <translation>%1 に書き込めませんでした: %2。既存のファイルは変更されていません。</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
    <message>
        <source>Summary copied</source>
        <translation>サマリーをコピーしました</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>無題</translation>
    </message>
    <message>
        <source>%1[*] — %2 on %3 × %4 — kvscope</source>
        <translation>%1[*] — %2 / %4 × %3 — kvscope</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>エクスポートに失敗しました</translation>
    </message>
    <message>
        <source>Launch command copied</source>
        <translation>起動コマンドをコピーしました</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>編集中</translation>
    </message>
    <message>
        <source>Import a model</source>
        <translation>モデルをインポート</translation>
    </message>
    <message>
        <source>Model files (*.json *.gguf);;Hugging Face config (*.json);;GGUF model (*.gguf)</source>
        <translation>モデルファイル (*.json *.gguf);;Hugging Face の config (*.json);;GGUF モデル (*.gguf)</translation>
    </message>
    <message>
        <source>Cannot fetch the model</source>
        <translation>モデルを取得できません</translation>
    </message>
    <message>
        <source>No launch command</source>
        <translation>起動コマンドはありません</translation>
    </message>
    <message>
        <source>%1 does not start on %2 GPUs in tensor parallel: the GPU count does not divide the attention heads evenly. Choose another GPU count.</source>
        <translation>%1 はテンソル並列 %2 GPU では起動しません。GPU 数がアテンションヘッド数を割り切れないためです。別の GPU 数を選んでください。</translation>
    </message>
    <message>
        <source>%1 does not load weights in %2. Choose other weights or another engine.</source>
        <translation>%1 は %2 の重みを読み込めません。別の重みか別の推論エンジンを選んでください。</translation>
    </message>
    <message>
        <source>kvscope knows no %1 checkpoint of %2, and %3 does not make one while loading. Enter yours under Checkpoint in the engine settings (a Hugging Face repository or a local path).</source>
        <translation>kvscope は %2 の %1 チェックポイントを把握しておらず、%3 も読み込み時に変換しません。推論エンジン設定の「チェックポイント」に、お使いのもの（Hugging Face のリポジトリかローカルパス）を入力してください。</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::MatrixPage</name>
    <message>
        <source>Columns:</source>
        <translation>列:</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Weight formats on this GPU</source>
        <translation>この GPU での重みの形式</translation>
    </message>
    <message>
        <source>Every cell is the scenario with that model and GPU (or format): same context, sequences and engine. The outlined cell is the scenario.</source>
        <translation>各セルは、そのモデルと GPU（または形式）に置き換えたシナリオです。コンテキスト長・シーケンス数・推論エンジンは同じ。枠で囲んだセルが現在のシナリオです。</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::PlanChart</name>
    <message>
        <source>Decode tokens/s per user</source>
        <translation>ユーザーあたりのデコード速度（トークン/秒）</translation>
    </message>
    <message>
        <source>Meets the targets</source>
        <translation>目標を満たす構成</translation>
    </message>
    <message>
        <source>Pareto front: nothing both cheaper and faster</source>
        <translation>パレートフロント（より安くより速い構成がない）</translation>
    </message>
    <message>
        <source>This scenario</source>
        <translation>現在のシナリオ</translation>
    </message>
    <message>
        <source>Closest: %1</source>
        <translation>最も近い構成: %1</translation>
    </message>
    <message>
        <source>Nothing in the catalog runs this and meets the targets.</source>
        <translation>カタログには、これを動かして目標を満たす構成がありません。</translation>
    </message>
    <message>
        <source>%1
%2 tokens/s per user, %3 tokens/s in all
%4/h, %5 per million tokens</source>
        <translation>%1
ユーザーあたり %2 トークン/秒、全体で %3 トークン/秒
1 時間あたり %4、100 万トークンあたり %5</translation>
    </message>
    <message>
        <source>What to buy: cost against speed</source>
        <translation>何を買うか：コストと速度</translation>
    </message>
    <message>
        <source>Rented, per hour (%1)</source>
        <translation>レンタル、1 時間あたり（%1）</translation>
    </message>
    <message>
        <source>Owned, per hour (%1)</source>
        <translation>所有、1 時間あたり（%1）</translation>
    </message>
    <message>
        <source>%1, %2, %3</source>
        <translation>%1、%2、%3</translation>
    </message>
    <message>
        <source>%1
%2/h</source>
        <translation>%1
%2/時</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::PlanPage</name>
    <message>
        <source>Rank by:</source>
        <translation>並べ替え:</translation>
    </message>
    <message>
        <source>GPUs per node, at most:</source>
        <translation>ノードあたりの GPU 上限:</translation>
    </message>
    <message>
        <source>Cost per hour</source>
        <translation>1 時間あたりのコスト</translation>
    </message>
    <message>
        <source>Cost per million tokens</source>
        <translation>100 万トークンあたりのコスト</translation>
    </message>
    <message>
        <source>Fewest GPUs</source>
        <translation>GPU 基数が少ない順</translation>
    </message>
    <message>
        <source>Fastest per user</source>
        <translation>ユーザーあたりの速度順</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>エンジン</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>重み</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV
キャッシュ</translation>
    </message>
    <message>
        <source>Tokens/s
per user</source>
        <translation>ユーザーあたり
トークン/秒</translation>
    </message>
    <message>
        <source>Tokens/s
in all</source>
        <translation>全体
トークン/秒</translation>
    </message>
    <message>
        <source>Per
hour</source>
        <translation>1 時間
あたり</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>備考</translation>
    </message>
    <message>
        <source>Double-click a row to make it the scenario.</source>
        <translation>行をダブルクリックすると、その構成をシナリオとして読み込みます。</translation>
    </message>
    <message>
        <source>one user</source>
        <translation>1 ユーザー</translation>
    </message>
    <message>
        <source>%1 users</source>
        <translation>%1 ユーザー</translation>
    </message>
    <message>
        <source>Nothing in the catalog runs %1 at %2 tokens for %3 and meets the targets; the closest, and what each lacks:</source>
        <translation>カタログには、%1 を %2 トークン・%3 で動かして目標を満たす構成がありません。近い構成と足りない点:</translation>
    </message>
    <message>
        <source>%1 at %2 tokens for %3: %4 configurations evaluated, the best per GPU and count below.</source>
        <translation>%1、%2 トークン、%3：%4 通りの構成を評価しました。GPU の種類と基数ごとの最良の構成を下に示します。</translation>
    </message>
    <message>
        <source>on the front</source>
        <translation>パレートフロント上</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>収まらない</translation>
    </message>
    <message>
        <source>too slow per user</source>
        <translation>ユーザーあたりの速度不足</translation>
    </message>
    <message>
        <source>first token too late</source>
        <translation>最初のトークンが遅すぎる</translation>
    </message>
    <message>
        <source>Currency:</source>
        <translation>通貨:</translation>
    </message>
    <message>
        <source>per USD:</source>
        <translation>1 USD あたり:</translation>
    </message>
    <message>
        <source>Units of the currency one US dollar buys: catalog prices are in USD.</source>
        <translation>1 米ドルがこの通貨でいくらになるか（カタログの価格は USD 建て）。</translation>
    </message>
    <message>
        <source>Write-off years:</source>
        <translation>償却年数:</translation>
    </message>
    <message>
        <source>A bought GPU&apos;s price is spread over this many years of round-the-clock use.</source>
        <translation>購入した GPU の価格を、24 時間稼働でこの年数にわたって償却します。</translation>
    </message>
    <message>
        <source>First token
(last user)</source>
        <translation>TTFT
（最後の 1 件）</translation>
    </message>
    <message>
        <source>Cost:</source>
        <translation>コスト：</translation>
    </message>
    <message>
        <source>Rented GPU-hours</source>
        <translation>レンタル（GPU 時間）</translation>
    </message>
    <message>
        <source>Owned (price, host, power, hosting)</source>
        <translation>所有（購入・ホスト・電力・設置）</translation>
    </message>
    <message>
        <source>Rented: a cloud&apos;s on-demand price per GPU-hour. Owned: the purchase price written off, the host&apos;s share, power and colocation. A GPU with no price on the basis shows —.</source>
        <translation>レンタル：クラウドのオンデマンド価格（GPU 1 時間あたり）。所有：購入価格の償却、ホストの按分、電力、コロケーション。選んだ基準で価格のない GPU は — と表示します。</translation>
    </message>
    <message>
        <source>Each meets %1 tokens/s per user and a first token within %2 for the last of %3 prompts sent together; KV caches of %4 bits and more.</source>
        <translation>どの構成も、ユーザーあたり %1 トークン/秒以上、%3 件のプロンプトを同時に送ったときの最後の 1 件の最初のトークンまで %2 以内、KV キャッシュ %4 ビット以上を満たします。</translation>
    </message>
    <message>
        <source>Prompt tokens %1, output tokens %2 per million; mixed as %3 prompt and %4 output tokens a request.</source>
        <translation>100 万トークンあたり、プロンプト %1、出力 %2。1 リクエストをプロンプト %3 トークンと出力 %4 トークンとして合算しています。</translation>
    </message>
    <message>
        <source>Runs in:</source>
        <translation>設置場所:</translation>
    </message>
    <message>
        <source>any place</source>
        <translation>指定なし</translation>
    </message>
    <message>
        <source>a datacenter</source>
        <translation>データセンター</translation>
    </message>
    <message>
        <source>a workstation</source>
        <translation>ワークステーション</translation>
    </message>
    <message>
        <source>a PC</source>
        <translation>PC</translation>
    </message>
    <message>
        <source>Which GPUs may run: a datacenter takes no Apple silicon and notes the GeForce driver licence; a workstation takes workstation and consumer cards and Apple silicon; a PC consumer cards and Apple silicon.</source>
        <translation>候補にする GPU を決めます。データセンターでは Apple シリコンを除き、GeForce にはドライバーのライセンスを注記します。ワークステーションではワークステーション向けとコンシューマー向けの GPU、Apple シリコンを、PC ではコンシューマー向け GPU と Apple シリコンを候補にします。</translation>
    </message>
    <message>
        <source>Requests/s:</source>
        <translation>リクエスト/秒:</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>it does not fit</source>
        <translation>メモリに収まらない</translation>
    </message>
    <message>
        <source>%1 tokens/s per user, under %2</source>
        <translation>ユーザーあたり %1 トークン/秒で %2 に届かない</translation>
    </message>
    <message>
        <source>first token in %1, over %2</source>
        <translation>初回トークンまでの時間が %1 で、目標の %2 を超える</translation>
    </message>
    <message>
        <source>no concurrency serves the rate within the targets</source>
        <translation>目標内でこのリクエストレートを処理できる同時実行数がない</translation>
    </message>
    <message>
        <source>; </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Each meets %1 tokens/s per user and a first token within %2 for a full-context prompt; KV caches of %3 bits and more.</source>
        <translation>どの構成も、ユーザーあたり %1 トークン/秒以上、コンテキスト長いっぱいのプロンプトで最初のトークンまで %2 以内、KV キャッシュ %3 ビット以上を満たします。</translation>
    </message>
    <message>
        <source>Per million
tokens, mixed</source>
        <translation>100 万トークン
あたり（合算）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>speed unmeasured</source>
        <translation>速度は実測未検証</translation>
    </message>
    <message>
        <source>%1 replicas: %2/h, p90 first token %3</source>
        <translation>レプリカ %1 台：%2/時、初回トークン p90 %3</translation>
    </message>
    <message>
        <source>Requests per second of the workload (prompt and output tokens as set in the scenario), arriving at random: each configuration takes the fewest replicas whose 90th-percentile first token meets the first-token target, and ranks by what they cost together.</source>
        <translation>ワークロード（プロンプトと出力のトークン数はシナリオの設定）の 1 秒あたりリクエスト数です。リクエストはランダムに到着するものとし、初回トークンの 90 パーセンタイルが目標内に収まる最少のレプリカ数を各構成について求め、その合計コストで順位を付けます。</translation>
    </message>
    <message>
        <source>Cheapest turned away: %1 (%2) at %3 an hour: %4.</source>
        <translation>候補から外れた最安の構成は %1（%2、1 時間あたり %3）で、理由は「%4」です。</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::PresentationMode</name>
    <message>
        <source>Views %1 of %2 · Page Down: next</source>
        <translation>ビュー %1 / %2 · Page Down で次へ</translation>
    </message>
    <message>
        <source>All settings</source>
        <translation>すべての設定</translation>
    </message>
    <message>
        <source>Every setting; presentation mode shows only the key controls</source>
        <translation>すべての設定を表示します。プレゼンテーションモードでは主な設定だけを表示します</translation>
    </message>
    <message>
        <source>&amp;Next views</source>
        <translation>次のビュー(&amp;N)</translation>
    </message>
    <message>
        <source>Pre&amp;vious views</source>
        <translation>前のビュー(&amp;V)</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::RemediesPanel</name>
    <message>
        <source>Apply</source>
        <translation>適用</translation>
    </message>
    <message>
        <source>What would make it run, in the order to try</source>
        <translation>動かすための対策（上から順に試す）</translation>
    </message>
    <message>
        <source>What would meet the targets</source>
        <translation>目標を満たすための対策</translation>
    </message>
    <message>
        <source>Undo: %1</source>
        <translation>元に戻す：%1</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::RequestControl</name>
    <message>
        <source>Average prompt length of a request, in tokens (serving view)</source>
        <translation>1 リクエストの平均プロンプト長（トークン数、サービングのビューで使用）</translation>
    </message>
    <message>
        <source>Average answer length of a request, in tokens (serving view)</source>
        <translation>1 リクエストの平均応答長（トークン数、サービングのビューで使用）</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ScenarioDocument</name>
    <message>
        <source>Cannot open scenario</source>
        <translation>シナリオを開けません</translation>
    </message>
    <message>
        <source>%1 was not opened; the current scenario is unchanged.
%2</source>
        <translation>%1 を開けませんでした。現在のシナリオはそのままです。
%2</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>シナリオの保存</translation>
    </message>
    <message>
        <source>kvscope scenario (*.kvscope.json)</source>
        <translation>kvscope シナリオ (*.kvscope.json)</translation>
    </message>
    <message>
        <source>Cannot save scenario</source>
        <translation>シナリオを保存できません</translation>
    </message>
    <message>
        <source>%1 could not be written: %2. The previous file, if any, is unchanged.</source>
        <translation>%1 に書き込めませんでした: %2。既存のファイルは変更されていません。</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存の変更</translation>
    </message>
    <message>
        <source>The scenario has unsaved changes. Save them first?</source>
        <translation>シナリオに未保存の変更があります。保存しますか？</translation>
    </message>
    <message>
        <source>Open scenario</source>
        <translation>シナリオを開く</translation>
    </message>
    <message>
        <source>kvscope scenario (*.kvscope.json *.json)</source>
        <translation>kvscope シナリオ (*.kvscope.json *.json)</translation>
    </message>
    <message>
        <source>Cannot import the model file</source>
        <translation>モデルファイルをインポートできません</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ScenarioHistory</name>
    <message>
        <source>change</source>
        <translation>変更</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ScenarioPanel</name>
    <message>
        <source>%1 (imported)</source>
        <translation>%1（インポート）</translation>
    </message>
    <message>
        <source>Custom: %1 (%2 GiB)...</source>
        <translation>カスタム: %1（%2 GiB）...</translation>
    </message>
    <message>
        <source>Custom GPU...</source>
        <translation>カスタム GPU...</translation>
    </message>
    <message>
        <source>%1 · %2 bits per weight</source>
        <translation>%1 · 重みあたり %2 ビット</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Type to search; drop a config.json or a GGUF file on the window to import it</source>
        <translation>入力して検索できます。config.json や GGUF ファイルをウィンドウにドロップするとインポートします</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>重み</translation>
    </message>
    <message>
        <source>KV cache dtype</source>
        <translation>KV キャッシュのデータ型</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Host link</source>
        <translation>ホスト接続</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>コンテキスト長</translation>
    </message>
    <message>
        <source>Concurrent sequences</source>
        <translation>同時実行数</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>推論エンジン</translation>
    </message>
    <message>
        <source>KV cache placement</source>
        <translation>KV キャッシュの配置先</translation>
    </message>
    <message>
        <source>Prefetch the next layer while computing (pipelined)</source>
        <translation>計算中に次のレイヤーを先読みする（パイプライン化）</translation>
    </message>
    <message>
        <source>Advanced: efficiencies and overheads</source>
        <translation>詳細設定: 効率とオーバーヘッド</translation>
    </message>
    <message>
        <source>NVMe drive</source>
        <translation>NVMe ドライブ</translation>
    </message>
    <message>
        <source>Host memory</source>
        <translation>ホストメモリ</translation>
    </message>
    <message>
        <source>MoE experts in host RAM</source>
        <translation>ホスト RAM に置く MoE エキスパート</translation>
    </message>
    <message>
        <source>Import model...</source>
        <translation>インポート...</translation>
    </message>
    <message>
        <source>A Hugging Face config.json or a GGUF model file</source>
        <translation>Hugging Face の config.json、または GGUF モデルファイル</translation>
    </message>
    <message>
        <source>usual platform: %1 GiB</source>
        <translation>一般的な構成: %1 GiB</translation>
    </message>
    <message>
        <source>unified memory: %1 GiB</source>
        <translation>ユニファイドメモリ: %1 GiB</translation>
    </message>
    <message>
        <source>not stated, not checked</source>
        <translation>未指定（確認しない）</translation>
    </message>
    <message>
        <source>Request: prompt + answer</source>
        <translation>リクエスト：プロンプト＋応答</translation>
    </message>
    <message>
        <source>GPUs (all nodes)</source>
        <translation>GPU 数（全ノード合計）</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ServingChart</name>
    <message>
        <source>Concurrent users</source>
        <translation>同時ユーザー数</translation>
    </message>
    <message>
        <source>Output tokens/s</source>
        <translation>出力トークン/秒</translation>
    </message>
    <message>
        <source>all users together</source>
        <translation>全ユーザー合計</translation>
    </message>
    <message>
        <source>each user</source>
        <translation>ユーザーあたり</translation>
    </message>
    <message>
        <source>A request of %1 + %2 tokens
is longer than the maximum length (%3).
Engines refuse it:
shorten the request or raise the context length.</source>
        <translation>%1 + %2 トークンのリクエストは
最大長（%3）を超えます。
エンジンはこれを拒否します。
リクエストを短くするか、コンテキスト長を延ばしてください。</translation>
    </message>
    <message>
        <source>%1
cannot serve this scenario:
one request of the maximum length does not fit.</source>
        <translation>%1 では
このシナリオを処理できません：
最大長のリクエスト 1 件が収まりません。</translation>
    </message>
    <message>
        <source>No engine can serve this scenario.</source>
        <translation>このシナリオを処理できるエンジンはありません。</translation>
    </message>
    <message>
        <source>%1 users: %2 tokens/s, %3 each</source>
        <translation>%1 ユーザー：%2 トークン/秒、1 人あたり %3</translation>
    </message>
    <message>
        <source>%1 run at once, the rest wait</source>
        <translation>同時に処理するのは %1 件、残りは待機</translation>
    </message>
    <message>
        <source>%1 refuses more than %2 concurrent requests</source>
        <translation>%1 は同時リクエスト %2 件を超えると拒否します</translation>
    </message>
    <message>
        <source>%1: cannot serve this scenario</source>
        <translation>%1：このシナリオを処理できません</translation>
    </message>
    <message>
        <source>Serving many users, by engine</source>
        <translation>エンジン別の同時実行性能</translation>
    </message>
    <message>
        <source>1 user: %1 tokens/s</source>
        <translation>1 ユーザー：%1 トークン/秒</translation>
    </message>
    <message>
        <source>preempted requests swapped over PCIe: +%1 a token</source>
        <translation>プリエンプトしたリクエストの KV を PCIe 経由でスワップ：1 トークンあたり +%1</translation>
    </message>
    <message>
        <source>preempted requests recomputed: +%1 a token</source>
        <translation>プリエンプトしたリクエストを再計算：1 トークンあたり +%1</translation>
    </message>
    <message>
        <source>%1 aborts past %2 requests: the swap space holds no preempted request</source>
        <translation>%1 は %2 件を超えると異常終了します：スワップ領域にプリエンプトしたリクエストが収まりません</translation>
    </message>
    <message>
        <source>%1, %2 users: %3 tokens/s, %4 each, %5 per token, first token %6 (all prompts at once: the last %7); holds %8 at once</source>
        <translation>%1、%2 ユーザー：%3 トークン/秒、1 人あたり %4、1 トークンあたり %5、最初のトークンまで %6（全員が同時に送った場合、最後の 1 件は %7）。同時に保持できるのは %8 件</translation>
    </message>
    <message>
        <source>measured %1</source>
        <translation>実測差 %1</translation>
    </message>
    <message>
        <source>Concurrent users, requests of %1 + %2 tokens</source>
        <translation>同時ユーザー数（リクエスト：%1 + %2 トークン）</translation>
    </message>
    <message>
        <source>%1
cannot serve this scenario.
%2</source>
        <translation>%1 ではこのシナリオを処理できません。
%2</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::TokensFitChart</name>
    <message>
        <source>Tokens that fit</source>
        <translation>格納できるトークン数</translation>
    </message>
    <message>
        <source>MHA
%1 KV heads</source>
        <translation>MHA
KV ヘッド %1</translation>
    </message>
    <message>
        <source>GQA
%1 KV heads</source>
        <translation>GQA
KV ヘッド %1</translation>
    </message>
    <message>
        <source>MQA
1 KV head</source>
        <translation>MQA
KV ヘッド 1</translation>
    </message>
    <message>
        <source>MLA
latent %1</source>
        <translation>MLA
潜在次元 %1</translation>
    </message>
    <message>
        <source> (this model)</source>
        <translation>（このモデル）</translation>
    </message>
    <message>
        <source>unbounded</source>
        <translation>上限なし</translation>
    </message>
    <message>
        <source>context %1</source>
        <translation>コンテキスト %1</translation>
    </message>
    <message>
        <source>Tokens per sequence</source>
        <translation>シーケンスあたりのトークン数</translation>
    </message>
    <message>
        <source>MHA</source>
        <translation>MHA</translation>
    </message>
    <message>
        <source>GQA</source>
        <translation>GQA</translation>
    </message>
    <message>
        <source>MQA</source>
        <translation>MQA</translation>
    </message>
    <message>
        <source>MLA</source>
        <translation>MLA</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>編集中</translation>
    </message>
    <message>
        <source>does not run</source>
        <translation>動作しません</translation>
    </message>
    <message>
        <source>%1
(%2× this model&apos;s)</source>
        <translation>%1
（このモデルの %2 倍）</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ValidationMenus</name>
    <message>
        <source>&amp;Validation against measurements...</source>
        <translation>実測値との検証(&amp;V)...</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>ツール(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Calibrate to a measurement...</source>
        <translation>実測値でキャリブレーション(&amp;C)...</translation>
    </message>
    <message>
        <source>Check a &amp;start-up log...</source>
        <translation>起動ログの確認(&amp;S)...</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ValidationPlot</name>
    <message>
        <source>tokens</source>
        <translation>トークン</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>トークン/秒</translation>
    </message>
    <message>
        <source>Measurements</source>
        <translation>実測値</translation>
    </message>
    <message>
        <source>llama.cpp KV buffer (MiB)</source>
        <translation>llama.cpp KV バッファ（MiB）</translation>
    </message>
    <message>
        <source>vLLM KV cache (tokens)</source>
        <translation>vLLM KV（トークン数）</translation>
    </message>
    <message>
        <source>tokens, GiB or MiB</source>
        <translation>トークン、GiB または MiB</translation>
    </message>
    <message>
        <source>Measured (%1)</source>
        <translation>実測値（%1）</translation>
    </message>
    <message>
        <source>within ±10 %</source>
        <translation>誤差 ±10 % 以内</translation>
    </message>
    <message>
        <source>predicted = measured</source>
        <translation>予測値 = 実測値</translation>
    </message>
    <message numerus="yes">
        <source>No case could be compared (%n skipped)</source>
        <translation>
            <numerusform>比較できたケースはありません（%n 件スキップ）</numerusform>
        </translation>
    </message>
    <message>
        <source>Median absolute error %1 %
Within 5 %: %2 of %3 · within 10 %: %4 of %3 · skipped %5</source>
        <translation>絶対誤差の中央値 %1 %
誤差 5 % 以内: %3 件中 %2 件 · 10 % 以内: %3 件中 %4 件 · スキップ %5 件</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1
%2
Predicted: %3 %4
Measured: %5 %4
Error: %6 %</source>
        <translation>%1
%2
予測値: %3 %4
実測値: %5 %4
誤差: %6 %</translation>
    </message>
    <message>
        <source>vLLM KV cache memory (GiB)</source>
        <translation>vLLM KV メモリ（GiB）</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>予測値</translation>
    </message>
    <message>
        <source>Predicted not to run: %1</source>
        <translation>動作しないと予測: %1 件</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ValidationView</name>
    <message>
        <source>No validation set was found in the data directories (is kvscope installed?).</source>
        <translation>データディレクトリに検証セットが見つかりません（kvscope は正しくインストールされていますか？）。</translation>
    </message>
    <message>
        <source>KV cache capacity</source>
        <translation>KV キャッシュ容量</translation>
    </message>
    <message>
        <source>Decode speed</source>
        <translation>デコード速度</translation>
    </message>
    <message>
        <source>PCIe host-to-GPU copy</source>
        <translation>PCIe ホスト→GPU 転送</translation>
    </message>
    <message>
        <source>capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>デコード</translation>
    </message>
    <message>
        <source>Skipped: the source does not name the GPU</source>
        <translation>スキップ: 出典に GPU の記載がありません</translation>
    </message>
    <message>
        <source>Skipped: %1 is not in the catalog</source>
        <translation>スキップ: %1 はカタログにありません</translation>
    </message>
    <message>
        <source>Skipped: %1 is not stated, and the figure depends on it</source>
        <translation>スキップ: 値を左右する %1 の記載がありません</translation>
    </message>
    <message>
        <source>Skipped: K and V cache types differ (%1)</source>
        <translation>スキップ: K と V のキャッシュ型が異なります（%1）</translation>
    </message>
    <message>
        <source>Skipped: %1</source>
        <translation>スキップ: %1</translation>
    </message>
    <message>
        <source>Validation against public measurements</source>
        <translation>公開実測値による検証</translation>
    </message>
    <message>
        <source>Each point is a public measurement (an engine&apos;s start-up log, a benchmark table or a copy test) against kvscope&apos;s prediction for the same model, GPU and settings, with the catalog&apos;s default factors, not the current scenario&apos;s. Points on the dashed diagonal agree; the shaded band is ±10 %. Hover a point for its case.</source>
        <translation>各点は、公開されている実測値（エンジンの起動ログ、ベンチマーク表、転送テスト）と、同じモデル・GPU・設定での kvscope の予測値の組です。係数は現在のシナリオではなく、カタログの既定値を使います。破線の対角線上なら予測と実測が一致し、網掛けは誤差 ±10 % の範囲です。点にマウスを合わせるとケースの詳細を表示します。</translation>
    </message>
    <message>
        <source>%1 cases (%2 skipped) from %3</source>
        <translation>%1 ケース（うち %2 件はスキップ）、読み込み元: %3</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>ケース</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>種別</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>予測値</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>実測値</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>単位</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>誤差</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>備考</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>トークン</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>トークン/秒</translation>
    </message>
    <message>
        <source>No context stated: decoded at 128 tokens (llama-bench&apos;s tg128)</source>
        <translation>コンテキスト長の記載なし: 128 トークン（llama-bench の tg128）で計算</translation>
    </message>
    <message>
        <source>Engine not stated: the catalog&apos;s default engine</source>
        <translation>エンジンの記載なし: カタログの既定エンジンで計算</translation>
    </message>
    <message>
        <source>GPU not stated: llama.cpp&apos;s KV buffer does not depend on it</source>
        <translation>GPU の記載なし: llama.cpp の KV バッファは GPU に依存しない</translation>
    </message>
    <message>
        <source>Skipped: not a direct DMA from pinned memory</source>
        <translation>スキップ: ピン留めメモリからの直接 DMA ではありません</translation>
    </message>
    <message>
        <source>Skipped: the source reports this figure as an engine defect</source>
        <translation>スキップ: 出典がこの値をエンジンの不具合と報告しています</translation>
    </message>
    <message>
        <source>Time per output token, serving</source>
        <translation>サービング時の出力トークン間隔（TPOT）</translation>
    </message>
    <message>
        <source>Time to first token, serving</source>
        <translation>サービング時の初回トークンまでの時間（TTFT）</translation>
    </message>
    <message>
        <source>time per token</source>
        <translation>トークン間隔</translation>
    </message>
    <message>
        <source>first token</source>
        <translation>初回トークン</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>区分</translation>
    </message>
    <message>
        <source>Speed class</source>
        <translation>速度クラス</translation>
    </message>
    <message>
        <source>%1 %2 cases, median %3 %</source>
        <translation>%1 %2 件、中央値 %3 %</translation>
    </message>
    <message>
        <source>No held-out case: every case shaped a default, a rule or a setting.</source>
        <translation>検証用に取り置いたケースはありません（すべて既定値・規則・設定の決定に使用済み）。</translation>
    </message>
    <message>
        <source>Held out (no default fitted to them): %1.</source>
        <translation>ホールドアウト（既定値のフィットに未使用）：%1。</translation>
    </message>
    <message>
        <source>; </source>
        <translation>、</translation>
    </message>
    <message>
        <source>held out</source>
        <translation>ホールドアウト</translation>
    </message>
    <message>
        <source>fit</source>
        <translation>当てはめ</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::ViewPages</name>
    <message>
        <source>Charts</source>
        <translation>グラフ</translation>
    </message>
    <message>
        <source>Plan: what to buy</source>
        <translation>構成プラン：何を買うか</translation>
    </message>
    <message>
        <source>Fit matrix</source>
        <translation>収まり表</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::VramChart</name>
    <message>
        <source>VRAM per GPU</source>
        <translation>GPU ごとの VRAM 内訳</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>重み</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV キャッシュ</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>アクティベーション</translation>
    </message>
    <message>
        <source>Overhead</source>
        <translation>オーバーヘッド</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空き</translation>
    </message>
    <message>
        <source>Held back by engine</source>
        <translation>使用上限の外</translation>
    </message>
    <message>
        <source>Overflow</source>
        <translation>超過</translation>
    </message>
    <message>
        <source>each of %1 GPUs</source>
        <translation>%1 基の GPU それぞれ</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>%1 of weights offloaded to CPU RAM</source>
        <translation>重みのうち %1 を CPU RAM にオフロード</translation>
    </message>
    <message>
        <source>Memory (%1)</source>
        <translation>メモリ（%1）</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Engine budget</source>
        <translation>エンジンの使用上限</translation>
    </message>
    <message>
        <source>overflow</source>
        <translation>超過</translation>
    </message>
    <message>
        <source>Experts in host RAM</source>
        <translation>ホスト RAM 上のエキスパート</translation>
    </message>
    <message>
        <source>+ %1 of experts in host RAM</source>
        <translation>＋ホスト RAM 側のエキスパート %1</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>編集中</translation>
    </message>
    <message>
        <source>capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>engine budget</source>
        <translation>エンジンの使用上限</translation>
    </message>
</context>
<context>
    <name>kvscope::ui::WindowMenus</name>
    <message>
        <source>Export report</source>
        <translation>レポートのエクスポート</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF ドキュメント (*.pdf)</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>データのエクスポート</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV ファイル (*.csv)</translation>
    </message>
    <message>
        <source>Pinned as %1; the Compare tab shows the difference.</source>
        <translation>%1 として固定しました。差分は「比較」タブで確認できます。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New scenario</source>
        <translation>新しいシナリオ(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open scenario...</source>
        <translation>シナリオを開く(&amp;O)...</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近使ったファイル(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save scenario</source>
        <translation>シナリオを保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save scenario &amp;as...</source>
        <translation>名前を付けてシナリオを保存(&amp;A)...</translation>
    </message>
    <message>
        <source>&amp;Import model (config.json, GGUF)...</source>
        <translation>モデルをインポート (config.json、GGUF)(&amp;I)...</translation>
    </message>
    <message>
        <source>Import from &amp;Hugging Face...</source>
        <translation>Hugging Face からインポート(&amp;H)...</translation>
    </message>
    <message>
        <source>Export &amp;chart</source>
        <translation>グラフのエクスポート(&amp;C)</translation>
    </message>
    <message>
        <source>Export &amp;report (PDF)...</source>
        <translation>レポートのエクスポート（PDF）(&amp;R)...</translation>
    </message>
    <message>
        <source>Export &amp;data (CSV)...</source>
        <translation>データのエクスポート（CSV）(&amp;D)...</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <source>Copy c&amp;hart</source>
        <translation>グラフをコピー(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Pin scenario for comparison</source>
        <translation>シナリオを比較用に固定(&amp;P)</translation>
    </message>
    <message>
        <source>U&amp;npin all</source>
        <translation>固定をすべて解除(&amp;N)</translation>
    </message>
    <message>
        <source>Copy &amp;summary</source>
        <translation>サマリーをコピー(&amp;S)</translation>
    </message>
    <message>
        <source>Copy &amp;launch command</source>
        <translation>起動コマンドをコピー(&amp;L)</translation>
    </message>
    <message>
        <source>The command that runs this scenario on its engine (vllm serve, llama-server or transformers in Python)</source>
        <translation>このシナリオを推論エンジンで動かすコマンド（vllm serve、llama-server、または transformers の Python コード）</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>プレゼンテーションモード(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>テーマ(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>システムに合わせる</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>ライト</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>ダーク</translation>
    </message>
    <message>
        <source>&amp;Units</source>
        <translation>単位(&amp;U)</translation>
    </message>
    <message>
        <source>Binary (GiB, as engines report)</source>
        <translation>2 進（GiB、推論エンジンのログと同じ）</translation>
    </message>
    <message>
        <source>Decimal (GB, as vendors quote)</source>
        <translation>10 進（GB、ベンダー公称値と同じ）</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>言語(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Undo: %1</source>
        <translation>元に戻す: %1(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>元に戻す(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo: %1</source>
        <translation>やり直す: %1(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>やり直す(&amp;R)</translation>
    </message>
    <message>
        <source>Import from Hugging Face</source>
        <translation>Hugging Face からインポート</translation>
    </message>
    <message>
        <source>Hugging Face model id (ORG/NAME, or ORG/NAME@REVISION):</source>
        <translation>Hugging Face のモデル ID（ORG/NAME、または ORG/NAME@リビジョン）:</translation>
    </message>
    <message>
        <source>Cannot fetch the model</source>
        <translation>モデルを取得できません</translation>
    </message>
</context>
</TS>
