"""The interface's words in English and Chinese; a page takes its language from ?lang=, then a cookie."""

from __future__ import annotations

from fastapi import Request

LANGUAGES = {"en": "English", "zh": "中文"}
COOKIE = "paperscope_lang"

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "search": "Search", "browse": "Browse", "query_label": "Search papers",
        "placeholder": "Words, a question, a pasted abstract, or Chinese…", "mode": "Mode",
        "hybrid": "Hybrid", "lexical": "Words", "semantic": "Meaning", "go": "Search",
        "venue": "Venue", "year": "Year", "contribution": "Contribution", "has_code": "Code",
        "with_code": "with code", "without_code": "without code", "filters": "Filters", "clear": "clear",
        "results": "results", "no_results": "No papers match.", "papers": "papers", "score": "score",
        "name": "Name", "abstract": "Abstract", "code": "Code", "links": "Links", "models": "Models",
        "benchmarks": "Benchmarks", "claims": "Claims", "claim": "Claim", "metric": "Metric",
        "baseline": "Baseline", "sources": "Sources", "related": "Related papers", "export": "Export",
        "authors": "Authors", "order": "Sort by", "page": "Page", "previous": "Previous", "next": "Next",
        "language": "Language", "shortcuts": "/ focuses the search box, ↑ ↓ move through results, Enter opens.",
        "main_nav": "Main", "not_found": "Not found", "error": "Error", "title": "Title",
        "id": "id", "pdf": "PDF", "site": "Site", "topic": "Topic", "map": "Map", "stats": "Statistics",
        "venue_year": "Venue and year", "code_share": "with code", "map_search": "Highlight papers on the map",
        "map_help": "Hover a dot for its title, click to open it; scroll to zoom, drag to pan.",
        "map_sample": "an even sample of", "claims_note": "Claims as extracted from the abstracts, not a verified leaderboard.",
        "sentence": "Sentence", "paper": "Paper", "no_claims": "No claim on this benchmark was extracted.",
        "variants": "Written as",
        "reset": "Reset view", "top_claims": "Claims by benchmark", "mine": "My library", "list": "Reading list",
        "tags": "Tags", "add_tag": "Add a tag", "note": "Note", "save": "Save", "state": "Reading state",
        "to read": "To read", "reading": "Reading", "read": "Read", "none": "Not listed", "queue": "+ To read",
        "recommend": "Recommended", "news": "News", "changes": "Changes", "because": "because",
        "added": "Added", "changed": "Changed", "removed": "Withdrawn", "no_news": "No saved searches yet.",
        "nothing": "Nothing here yet.", "remove": "remove", "searched_as": "Words searched as: ",
        "not_relevant": "Not relevant",
        "order_relevance": "relevance", "order_year": "newest", "order_venue": "venue", "order_name": "name",
        "showing": "Showing", "like_link": "Find papers like a pasted abstract →", "like_title": "Papers like this text",
        "like_label": "Paste an abstract or a paragraph (up to 5,000 characters); papers are found by its meaning.",
        "like_go": "Find similar papers", "from_sources": "From", "largest_topics": "Largest topics",
        "sample": "A sample of papers", "elsewhere": "Search the title on", "ok": "OK", "method": "method",
        "dataset": "dataset", "theory": "theory", "analysis": "analysis", "system": "system", "position": "position",
        "benchmark": "benchmark", "other": "other", "docs": "API",
        "why_sep": "; ", "why_id": "the paper's id", "why_matched": "matched: ", "why_field": "{words} in {field}",
        "why_similar": "similar meaning {value}", "field_title": "title", "field_name": "name",
        "field_benchmarks": "benchmarks", "field_models": "models", "field_authors": "authors",
        "field_abstract": "abstract", "why_shares": "shares {kind} {value}", "why_phrases": "both about {value}",
        "kind_benchmark": "benchmark", "kind_model": "model", "kind_topic": "topic",
    },
    "zh": {
        "search": "搜索", "browse": "浏览", "query_label": "搜索论文",
        "placeholder": "关键词、问题、整段摘要或中文…", "mode": "方式",
        "hybrid": "混合", "lexical": "关键词", "semantic": "语义", "go": "搜索",
        "venue": "会议", "year": "年份", "contribution": "贡献类型", "has_code": "代码",
        "with_code": "有代码", "without_code": "无代码", "filters": "筛选", "clear": "清除",
        "results": "条结果", "no_results": "没有匹配的论文。", "papers": "篇论文", "score": "得分",
        "name": "名称", "abstract": "摘要", "code": "代码", "links": "链接", "models": "模型",
        "benchmarks": "基准", "claims": "论断", "claim": "结果", "metric": "指标",
        "baseline": "基线", "sources": "来源", "related": "相关论文", "export": "导出",
        "authors": "作者", "order": "排序", "page": "页", "previous": "上一页", "next": "下一页",
        "language": "语言", "shortcuts": "按 / 聚焦搜索框，↑ ↓ 在结果间移动，回车打开。",
        "main_nav": "主导航", "not_found": "未找到", "error": "错误", "title": "标题",
        "id": "编号", "pdf": "PDF", "site": "网页", "topic": "主题", "map": "地图", "stats": "统计",
        "venue_year": "会议与年份", "code_share": "有代码", "map_search": "在地图上标出论文",
        "map_help": "悬停查看标题，点击打开；滚轮缩放，拖动平移。",
        "map_sample": "均匀抽样显示", "claims_note": "以下论断从摘要中抽取，并非经过核实的排行榜。",
        "sentence": "原句", "paper": "论文", "no_claims": "没有从摘要中抽取到关于该基准的论断。",
        "variants": "写法",
        "reset": "重置视图", "top_claims": "各基准上的论断", "mine": "我的文库", "list": "阅读清单",
        "tags": "标签", "add_tag": "添加标签", "note": "笔记", "save": "保存", "state": "阅读状态",
        "to read": "待读", "reading": "在读", "read": "已读", "none": "不在清单", "queue": "+ 待读",
        "recommend": "推荐", "news": "新论文", "changes": "变更", "because": "因为",
        "added": "新增", "changed": "有改动", "removed": "已撤回", "no_news": "还没有保存的搜索。",
        "nothing": "这里还没有内容。", "remove": "移除", "searched_as": "关键词按英文检索：", "not_relevant": "不相关",
        "order_relevance": "相关度", "order_year": "最新", "order_venue": "会议", "order_name": "名称",
        "showing": "显示", "like_link": "粘贴一段摘要，查找相似论文 →", "like_title": "与这段文字相似的论文",
        "like_label": "粘贴一段摘要或文字（最多 5000 字），按语义查找论文。", "like_go": "查找相似论文",
        "from_sources": "来自", "largest_topics": "最大的主题", "sample": "论文抽样", "elsewhere": "在以下网站搜索标题",
        "ok": "确定", "method": "方法", "dataset": "数据集", "theory": "理论", "analysis": "分析", "system": "系统",
        "position": "立场", "benchmark": "基准", "other": "其他", "docs": "API",
        "why_sep": "；", "why_id": "论文编号", "why_matched": "匹配：", "why_field": "{field}中的 {words}", "why_similar": "语义相似度 {value}",
        "field_title": "标题", "field_name": "名称", "field_benchmarks": "基准", "field_models": "模型",
        "field_authors": "作者", "field_abstract": "摘要", "why_shares": "共同的{kind}：{value}",
        "why_phrases": "都涉及 {value}", "kind_benchmark": "基准", "kind_model": "模型", "kind_topic": "主题",
    },
}  # fmt: skip


def language(request: Request) -> str:
    chosen = request.query_params.get("lang") or request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return "zh" if request.headers.get("accept-language", "").lower().startswith("zh") else "en"
