"""Every string a reader sees on generated pages, in Korean and English."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..languages import MONTHS_EN
from ..model.text import is_known

_STRINGS: dict[str, dict[str, str]] = {
    "site_title": {"ko": "Incident Library", "en": "Incident Library"},
    # The product is "Incident Library" in both languages (site_title); its home, the list of
    # every case, is "전체 사례" / "All cases" in the navigation, titles and breadcrumbs.
    "library": {"ko": "전체 사례", "en": "All cases"},
    "library_intro": {
        "ko": "Kubernetes와 AI 인프라에서 공개된 장애 사례를 원인, 구성 요소, 기여 요인으로 "
        "분류해 모았습니다.",
        "en": "Public Kubernetes and AI-infrastructure incidents, classified by cause, component "
        "and contributing factor.",
    },
    "newest_first_note": {
        "ko": "검색어 없이 필터만 적용한 목록입니다. 최근 사례부터입니다.",
        "en": "Filters only, no search query. Newest cases first.",
    },
    "cases_count": {"ko": "사례 {n}건", "en": "{n} cases"},
    "cases_count_one": {"ko": "사례 {n}건", "en": "{n} case"},
    "range": {"ko": "{total}건 중 {start}~{end}번째", "en": "{start}–{end} of {total}"},
    "pagination": {"ko": "페이지", "en": "Pages"},
    "previous": {"ko": "이전", "en": "Previous"},
    "next": {"ko": "다음", "en": "Next"},
    "page_n": {"ko": "{n}쪽", "en": "page {n}"},
    "by_facet": {"ko": "{facet}별", "en": "By {facet_lower}"},
    "all_terms_of": {"ko": "{facet} 전체", "en": "All {facet_lower} terms"},
    "term_cases": {"ko": "이 분류의 사례", "en": "Cases"},
    "occurs_with": {"ko": "함께 자주 나오는 분류", "en": "Often seen with"},
    "occurs_with_intro": {
        "ko": "이 분류가 붙은 사례에 가장 많이 함께 붙은 다른 분류입니다.",
        "en": "Terms of other facets that occur most often in these cases.",
    },
    "broader_term": {"ko": "상위 분류", "en": "Broader term"},
    "narrower_terms": {"ko": "하위 분류", "en": "Narrower terms"},
    "no_cases": {"ko": "아직 이 분류의 사례가 없습니다.", "en": "No cases use this term yet."},
    "occurred": {"ko": "발생", "en": "Occurred"},
    "ended": {"ko": "종료", "en": "Ended"},
    "published": {"ko": "공개", "en": "Published"},
    "scale": {"ko": "규모", "en": "Scale"},
    "scale_gpus": {"ko": "GPU {n}개", "en": "{n} GPUs"},
    "scale_hosts": {"ko": "호스트 {n}대", "en": "{n} hosts"},
    "scale_nodes": {"ko": "노드 {n}개", "en": "{n} nodes"},
    "scale_clusters": {"ko": "클러스터 {n}개", "en": "{n} clusters"},
    "sources": {"ko": "출처", "en": "Sources"},
    "related": {"ko": "관련 사례", "en": "Related cases"},
    "related_shared": {"ko": "공통 분류 {n}개", "en": "{n} shared terms"},
    "related_shared_one": {"ko": "공통 분류 {n}개", "en": "{n} shared term"},
    "no_related": {
        "ko": "공통 분류가 있는 다른 사례가 아직 없습니다.",
        "en": "No other case shares terms yet.",
    },
    "fallback_notice": {
        "ko": "이 사례는 아직 한국어로 번역되지 않아 원문({original})으로 보여 드립니다.",
        "en": "This case has not been translated into English yet; it is shown in the original "
        "({original}).",
    },
    "not_in_sources": {
        "ko": "이 사례는 이 부분을 기록하지 않았습니다. 아래 출처를 보세요.",
        "en": "This case does not record this part; see the sources below.",
    },
    "summary_only": {
        "ko": "이 부분의 사실 가운데 일부는 출처 원문이 아니라 출처를 요약한 2차 자료에서 "
        "가져왔습니다. 아래 출처를 보세요.",
        "en": "Some facts in this part come from a secondary summary of the source, not from the "
        "source itself; see the sources below.",
    },
    "summary_only_notice": {
        "ko": "출처 원문을 읽지 못하고 2차 요약으로만 확인한 항목이 있습니다: {sections}.",
        "en": "Some parts rest on a secondary summary, not on the source itself: {sections}.",
    },
    "partial_notice": {
        "ko": "일부만 기록한 사례입니다. 기록하지 않은 항목: {sections}.",
        "en": "A partial case: it does not record {sections}.",
    },
    "check_cluster": {
        "ko": "내 클러스터에도 있는지 확인하기",
        "en": "Check whether your cluster has it too",
    },
    "cite": {"ko": "인용하기", "en": "Cite this case"},
    "cite_permalink": {"ko": "고유 주소", "en": "Permalink"},
    "cite_text": {"ko": "일반 텍스트", "en": "Plain text"},
    "cite_path": {"ko": "사이트 안의 경로", "en": "Path within the site"},
    "cite_no_permalink": {
        "ko": "이 사본은 게시 주소 없이 만들어져 고유 주소를 드릴 수 없습니다. 게시된 사이트에서는 "
        "사이트 주소 뒤에 이 경로가 붙은 곳에 이 사례가 있습니다.",
        "en": "This copy was built without the site's published address, so it cannot give a "
        "permanent one: on the published site, this case is at this path under its address.",
    },
    # case page: contents, permalinks, copy
    "contents": {"ko": "목차", "en": "Table of contents"},  # Material's own name for its TOC
    "permalink": {
        "ko": "{section} 섹션으로 바로 가는 링크",
        "en": "Permanent link to this section: {section}",
    },
    "copy_citation": {"ko": "인용 복사", "en": "Copy citation"},
    "copy_bibtex": {"ko": "BibTeX 복사", "en": "Copy BibTeX"},
    "copied": {"ko": "복사했습니다", "en": "Copied"},
    "copy_failed": {
        "ko": "복사하지 못했습니다. 선택된 글을 직접 복사해 주세요.",
        "en": "Could not copy. The text is selected: copy it yourself.",
    },
    "language_choice": {"ko": "언어를 고르세요", "en": "Choose a language"},
    "facets": {"ko": "분류", "en": "Facets"},
    "browse_facets": {"ko": "분류별로 보기", "en": "Browse by facet"},
    "facet_counts_note": {
        "ko": "분류 이름 옆의 숫자는 지금 결과에 나온 값의 수이고, 값 옆의 숫자는 그 값을 고르면 "
        "나올 사례 수입니다.",
        "en": "Beside each facet: how many of its values the results have. Beside each value: "
        "how many cases choosing it gives.",
    },
    "breadcrumb": {"ko": "이동 경로", "en": "Breadcrumb"},
    "case": {"ko": "사례", "en": "Case"},
    "terms_count": {"ko": "분류 값 {n}개", "en": "{n} terms"},
    "terms_count_one": {"ko": "분류 값 {n}개", "en": "{n} term"},
    "case_count_short": {"ko": "{n}건", "en": "{n}"},
    "cases_label": {"ko": "사례 수", "en": "Cases"},
    "term_label": {"ko": "분류 값", "en": "Term"},
    "description_label": {"ko": "설명", "en": "Description"},
    "aliases": {"ko": "다른 이름", "en": "Also known as"},
    "original_language": {"ko": "원문 언어", "en": "Original language"},
    "search_label": {"ko": "사례 검색", "en": "Search cases"},
    "search_submit": {"ko": "검색", "en": "Search"},
    "search_label_long": {
        "ko": "증상, 구성 요소, 원인으로 사례 검색",
        "en": "Search cases by symptom, component or cause",
    },
    # short enough for the box on a phone (a test measures it at 390 px)
    "search_placeholder": {"ko": "예: 인피니밴드 배선", "en": "e.g. InfiniBand cabling"},
    "load_failed": {
        "ko": "검색 자료를 불러오지 못했습니다. 페이지를 새로 고쳐 보세요.",
        "en": "The search data could not be loaded. Try reloading the page.",
    },
    "applied_filters": {"ko": "적용된 필터", "en": "Applied filters"},
    "clear_all": {"ko": "모두 풀기", "en": "Clear all"},
    "query_label": {"ko": "검색어", "en": "Query"},
    "remove_query": {"ko": "검색어 {q} 지우기", "en": "Clear the query {q}"},
    # a chip's name holds what it shows ("조직 = 애크미": "조직 애크미 …"), as WCAG's "label
    # in name" asks, and says what pressing it does
    "remove_filter": {"ko": "{facet} {term} 필터 풀기", "en": "Remove filter {facet}: {term}"},
    "recommended_filters": {"ko": "추천 필터", "en": "Recommended filters"},
    "suggest_empty": {
        "ko": "검색하면 검색어에서 찾은 분류 값이 여기에 나옵니다.",
        "en": "When you search, taxonomy values found in your query appear here.",
    },
    "no_suggestions": {
        "ko": "검색어에서 찾은 분류 값이 없습니다.",
        "en": "No taxonomy values found in your query.",
    },
    "query_note": {
        "ko": "'{q}' 검색 결과입니다. 관련도 순입니다.",
        "en": "Results for '{q}', most relevant first.",
    },
    "graph": {"ko": "그래프", "en": "Graph"},
    "graph_intro": {
        "ko": "현재 결과의 사례와 그 분류를 잇는 그래프입니다. "
        "분류를 누르면 필터가 걸리고, 사례를 누르면 열립니다.",
        "en": "Cases in the current results linked to their terms. "
        "Select a term to filter by it, a case to open it.",
    },
    "graph_legend": {"ko": "범례", "en": "Legend"},
    "graph_status": {
        "ko": "사례 {cases}건, 분류 {terms}개를 그렸습니다.",
        "en": "Showing {cases} cases and {terms} terms.",
    },
    "graph_status_one": {
        "ko": "사례 {cases}건, 분류 {terms}개를 그렸습니다.",
        "en": "Showing {cases} case and {terms} terms.",
    },
    "graph_overview": {
        "ko": "사례 {cases}건에 가장 많이 나온 분류 {terms}개와, 두 사례 이상에 함께 나온 분류를 "
        "이었습니다. 필터로 {max}건 이하로 좁히면 사례도 그립니다.",
        "en": "The {terms} terms that occur most in {cases} cases, linked where two occur "
        "together in two cases or more. Narrow the results to {max} cases or fewer to see the "
        "cases too.",
    },
    "graph_capped": {
        "ko": "사례가 많아 최근 {shown}건만 그렸습니다(전체 {total}건).",
        "en": "Showing the newest {shown} of {total} cases.",
    },
    "graph_label": {
        "ko": "사례와 분류의 그래프. 같은 내용은 아래 표에 있습니다.",
        "en": "Graph of cases and terms; the table below has the same information.",
    },
    "graph_size": {"ko": "원 크기: 사례 수", "en": "Circle size: number of cases"},
    "graph_hint": {
        "ko": "마우스 휠이나 두 손가락으로 확대·축소하고, 끌어서 옮길 수 있습니다. "
        "그래프를 선택한 상태에서는 +, −, 0, 화살표 키도 쓸 수 있습니다.",
        "en": "Zoom with the mouse wheel or a two-finger pinch, and drag to move around. "
        "With the graph selected, the +, −, 0 and arrow keys work too.",
    },
    "graph_zoom": {"ko": "확대와 축소", "en": "Zoom"},
    "graph_zoom_in": {"ko": "확대", "en": "Zoom in"},
    "graph_zoom_out": {"ko": "축소", "en": "Zoom out"},
    "graph_reset": {"ko": "원래대로", "en": "Reset"},
    "graph_reset_label": {"ko": "확대와 이동을 원래대로", "en": "Reset zoom and position"},
    "kind_case": {"ko": "사례", "en": "Case"},
    "pairs_caption": {
        "ko": "가장 자주 함께 나오는 분류 쌍",
        "en": "Term pairs that occur together most often",
    },
    "pairs_term": {"ko": "분류", "en": "Term"},
    "pairs_with": {"ko": "함께 나오는 분류", "en": "Occurs with"},
    "pairs_count": {"ko": "사례 수", "en": "Cases"},
    "matrix": {"ko": "함께 나오는 분류 표", "en": "Co-occurrence"},
    "matrix_title": {"ko": "{rows} × {cols}", "en": "{rows} × {cols}"},
    "matrix_intro": {
        "ko": "각 칸은 두 분류가 함께 붙은 사례 수이고, 누르면 그 사례들을 보여 줍니다.",
        "en": "Each cell counts the cases tagged with both terms; select it to see those cases.",
    },
    "matrix_other": {"ko": "다른 조합", "en": "Other pairs"},
    "matrix_cell": {
        "ko": "{row}와(과) {col}: 사례 {n}건",
        "en": "{row} and {col}: {n} cases",
    },
    "matrix_cell_one": {
        "ko": "{row}와(과) {col}: 사례 {n}건",
        "en": "{row} and {col}: {n} case",
    },
    "matrix_legend": {"ko": "칸의 색: 사례 수", "en": "Cell colour: number of cases"},
    "matrix_range": {"ko": "{low}~{high}건", "en": "{low}–{high}"},
    "matrix_only_used": {
        "ko": "사례가 있는 행과 열만 보기",
        "en": "Only rows and columns with cases",
    },
    "matrix_filtered": {
        "ko": "필터에 맞는 사례 {n}건으로 센 표입니다.",
        "en": "Counted over the {n} cases that match the filters.",
    },
    "matrix_filtered_one": {
        "ko": "필터에 맞는 사례 {n}건으로 센 표입니다.",
        "en": "Counted over the {n} case that matches the filters.",
    },
    "matrix_hidden": {
        "ko": "사례가 없는 행 {rows}개와 열 {cols}개는 숨겼습니다.",
        "en": "Hidden for having no cases: rows {rows}, columns {cols}.",
    },
    "matrix_no_cases": {
        "ko": "필터에 맞는 사례가 없습니다. 필터를 풀어 보세요.",
        "en": "No case matches the filters. Remove one to see more.",
    },
    "dropped_words": {
        "ko": "어느 사례에도 없는 단어는 빼고 찾았습니다: {words}",
        "en": "No case has these words, so they were left out: {words}",
    },
    "partial_heading": {
        "ko": "일부만 일치하는 사례 {n}건",
        "en": "Cases matching part of the question: {n}",
    },
    "partial_more": {
        "ko": "처음 {shown}건만 보여 드립니다.",
        "en": "The first {shown} are shown.",
    },
    "corrected_word": {
        "ko": "색인에 없는 단어라 비슷한 단어로 찾았습니다: {typed} → {taken}",
        "en": "Not in any case, so a similar word was searched: {typed} → {taken}",
    },
    "ignored_words": {
        "ko": "검색어가 길어 앞의 단어 {n}개만 찾았습니다.",
        "en": "Only the first {n} words of the query were searched.",
    },
    # the library page: phones, loading, the cluster block, skip links, pages without scripts
    "not_found_title": {"ko": "페이지를 찾을 수 없습니다", "en": "Page not found"},
    "not_found": {
        "ko": "이 주소에는 페이지가 없습니다. 사례의 주소가 바뀌었다면 검색해 보세요.",
        "en": "There is no page at this address. If a case moved, search for it.",
    },
    "not_found_home": {"ko": "전체 사례에서 검색하기", "en": "Search all cases"},
    "feed_title": {"ko": "Incident Library (한국어)", "en": "Incident Library (English)"},
    "feed_link": {"ko": "새 사례 피드 (Atom)", "en": "New cases (Atom feed)"},
    "api_link": {"ko": "사례 데이터 (JSON)", "en": "Case data (JSON)"},
    "repository_link": {
        "ko": "저장소 (이슈·풀 리퀘스트)",
        "en": "Repository (issues, pull requests)",
    },
    "footer_links": {"ko": "피드, 데이터, 저장소", "en": "Feeds, data and repository"},
    "palette_to_dark": {"ko": "어두운 화면으로 바꾸기", "en": "Switch to dark mode"},
    "palette_to_light": {"ko": "밝은 화면으로 바꾸기", "en": "Switch to light mode"},
    "loading": {"ko": "결과를 불러오는 중…", "en": "Loading the results…"},
    "filters": {"ko": "필터", "en": "Filters"},
    "filters_applied": {"ko": "필터 ({n})", "en": "Filters ({n})"},
    "show_cases": {"ko": "사례 {n}건 보기", "en": "Show {n} cases"},
    "show_cases_one": {"ko": "사례 {n}건 보기", "en": "Show {n} case"},
    "close_filters": {"ko": "닫기", "en": "Close"},
    "cluster_lead": {
        "ko": "이 사례들에 가장 많이 나온 구성 요소입니다. 쓰고 있는 것이 있다면 사례들의 "
        "감지·후속 조치 항목을 내 클러스터에 대입해 보세요.",
        "en": "The components that occur most in these cases. If you run any of them, walk "
        "through the cases' detection and follow-up items against your own cluster.",
    },
    "cluster_lead_one": {
        "ko": "이 사례에 나온 구성 요소입니다. 쓰고 있는 것이 있다면 이 사례의 감지·후속 조치 "
        "항목을 내 클러스터에 대입해 보세요.",
        "en": "The components in this case. If you run any of them, walk through its detection "
        "and follow-up items against your own cluster.",
    },
    "cluster_checker": {
        "ko": "점검 도구: {name}",
        "en": "Checker: {name}",
    },
    # the checker (`incidents audit`), its checks' pages and the "check your cluster" block
    "checks": {"ko": "클러스터 점검 항목", "en": "Cluster checks"},
    "checks_intro": {
        "ko": "incidents audit가 Kubernetes 매니페스트나 현재 클러스터에서 찾는 설정입니다. "
        "점검마다 근거가 된 이 라이브러리의 사례가 있습니다. 읽기만 하고 아무것도 바꾸지 않습니다.",
        "en": "What incidents audit looks for in Kubernetes manifests or your current cluster. "
        "Every check is drawn from cases in this library. It only reads; it changes nothing.",
    },
    "checks_count": {"ko": "점검 {n}개", "en": "{n} checks"},
    "checks_count_one": {"ko": "점검 {n}개", "en": "{n} check"},
    "severity": {"ko": "심각도", "en": "Severity"},
    "severity_high": {"ko": "높음", "en": "High"},
    "severity_medium": {"ko": "중간", "en": "Medium"},
    "severity_low": {"ko": "낮음", "en": "Low"},
    "check_scope": {"ko": "판단 범위", "en": "Scope"},
    "scope_object": {
        "ko": "객체만 보고 판단합니다(매니페스트 일부로도 됩니다).",
        "en": "Judged from the objects themselves (a few manifests will do).",
    },
    "scope_cluster": {
        "ko": "빠진 것을 찾으므로 클러스터 전체가 필요합니다(현재 클러스터, 또는 --whole-cluster로 "
        "넘긴 전체 덤프).",
        "en": "Looks for something missing, so it needs the whole cluster (your current cluster, "
        "or a full dump passed with --whole-cluster).",
    },
    "check_why": {"ko": "왜 점검하나", "en": "Why it matters"},
    "check_fix": {"ko": "고치는 법", "en": "How to fix it"},
    "check_cases": {"ko": "근거 사례", "en": "Drawn from these cases"},
    "check_terms": {"ko": "관련 분류", "en": "Terms"},
    "check_run": {"ko": "실행하기", "en": "Run it"},
    "check_run_lead": {
        "ko": "저장소를 받은 뒤 루트에서 실행합니다. 매니페스트 폴더나 현재 kube context의 "
        "클러스터를 읽기만 합니다.",
        "en": "From a clone of the repository, at its root. It reads a folder of manifests or the "
        "cluster of your current kube context, and changes nothing.",
    },
    "check_example": {"ko": "이 점검이 잡아내는 매니페스트", "en": "A manifest this check flags"},
    "check_example_passes": {"ko": "통과하는 매니페스트", "en": "A manifest that passes"},
    "all_checks": {"ko": "모든 점검 항목", "en": "All checks"},
    "case_checks": {"ko": "이 사례에서 나온 점검", "en": "Checks drawn from this case"},
    "cluster_checks": {
        "ko": "이 구성 요소에 관한 점검입니다. 매니페스트나 현재 클러스터에서 실행하세요"
        "(읽기 전용).",
        "en": "Checks for these components. Run them on your manifests or your current cluster "
        "(read-only):",
    },
    "cluster_checks_none": {
        "ko": "이 구성 요소에 관한 점검은 아직 없습니다. 전체 점검 항목을 보세요.",
        "en": "No check concerns these components yet; see all checks.",
    },
    "audit_fix": {"ko": "고칠 점", "en": "Fix"},
    "audit_cases": {"ko": "근거 사례", "en": "Cases"},
    "audit_none": {"ko": "찾은 문제가 없습니다.", "en": "No findings."},
    "audit_summary": {
        "ko": "객체 {objects}개, 점검 {checks}개: 높음 {high}건, 중간 {medium}건, 낮음 {low}건",
        "en": "{objects} objects, {checks} checks: {high} high, {medium} medium, {low} low",
    },
    "audit_not_run": {
        "ko": "클러스터 전체가 필요한 점검 {n}개는 실행하지 않았습니다({ids}). 전체 덤프라면 "
        "--whole-cluster를 붙이세요.",
        "en": "{n} checks that need the whole cluster did not run ({ids}); add --whole-cluster "
        "if this is a complete dump.",
    },
    "skip_links": {"ko": "바로 가기", "en": "Skip links"},
    "skip_to_results": {"ko": "결과로 건너뛰기", "en": "Skip to results"},
    "skip_to_facets": {"ko": "필터로 건너뛰기", "en": "Skip to filters"},
    "noscript": {
        "ko": "JavaScript가 꺼져 있어 검색과 필터를 쓸 수 없습니다. 주소에 필터가 있어도 아래는 "
        "전체 목록입니다. 분류별 페이지에서 사례를 찾아보세요.",
        "en": "JavaScript is off, so search and filters do not work: whatever filters the address "
        "holds, the list below shows every case. Browse the facet pages instead.",
    },
    "no_results": {
        "ko": "조건에 맞는 사례가 없습니다. 필터를 풀거나 다른 검색어를 써 보세요.",
        "en": "No case matches. Remove a filter or try other words.",
    },
}


def t(key: str, lang: str, **values: object) -> str:
    """The string `key` in `lang`, formatted with `values`; in Korean, with the particles after
    a placeholder that fit the value (see `particle`)."""
    text = _STRINGS[key][lang]
    if not values:
        return text
    return fill(text, lang, values)


def fill(text: str, lang: str, values: Mapping[str, object]) -> str:
    """`text` with its `{placeholders}` filled from `values` (a missing one is left blank); in
    Korean, each particle after a placeholder takes the form that fits its value."""
    if lang == "ko":
        text = _PARTICLE_AFTER.sub(
            lambda m: (
                "{" + m.group(1) + "}" + particle(str(values.get(m.group(1), "")), m.group(2))
            ),
            text,
        )
    return text.format_map(_Blank(values))


class _Blank(dict):
    def __init__(self, values: Mapping[str, object]) -> None:
        super().__init__(values)

    def __missing__(self, key: str) -> str:
        return ""


# Korean particles that change with the sound before them. A string writes one after a
# placeholder as dictionaries do, "{row}와(과)", since the value is not known yet; `t` puts the
# form that fits the value in its place ("잘못된 변경과", "etcd와"), so a reader never sees
# "와(과)". Each: the form after a consonant, after a vowel, after ㄹ. assets/matrix.js does the
# same for the strings it fills in the browser: keep the two alike.
_PARTICLES = {
    "와(과)": ("과", "와", "과"),
    "과(와)": ("과", "와", "과"),
    "이(가)": ("이", "가", "이"),
    "가(이)": ("이", "가", "이"),
    "은(는)": ("은", "는", "은"),
    "는(은)": ("은", "는", "은"),
    "을(를)": ("을", "를", "을"),
    "를(을)": ("을", "를", "을"),
    "(으)로": ("으로", "로", "로"),
}
_PARTICLE_AFTER = re.compile(r"\{(\w+)\}(" + "|".join(map(re.escape, _PARTICLES)) + ")")
# What a particle does not attach to: a parenthesis ("코드형 인프라(IaC)" is read up to 라),
# closing quotes, a full stop.
_UNREAD_END = re.compile(r"(?:\s*\([^()]*\)|[\s'\"’”」』》〉\].,·])+$")
# Digits as Korean reads them: 영 일 이 삼 사 오 육 칠 팔 구.
_DIGIT_SOUNDS = tuple(
    {"c": "consonant", "r": "rieul", "v": "vowel"}[sound] for sound in "crvcvvcrrv"
)
# An acronym ends as its last letter is named: 엘, 엠, 엔, 알; every other letter's name ends in
# a vowel (에이, 비, 씨, …, 에스, 유).
_LETTER_SOUNDS = {"L": "rieul", "R": "rieul", "M": "consonant", "N": "consonant"}
# A Latin word ends in a consonant when Korean writes its last sound as a final consonant: -l
# (모달, 구글), -m, -n, -ng, and a stop after a short vowel (큐블릿, 웹훅, 젯스택, 앤트로픽).
_LATIN_RIEUL = re.compile(r"(?:l|le)$")
_LATIN_CONSONANT = re.compile(
    r"(?:m|n|ng|out|(?:(?:^|[^aeiou])[aeiou]|oo)c?k|(?:^|[^aeiou])[aeiou][cpt])$"
)


def final_sound(word: str) -> str:
    """How `word` ends when read in Korean, which chooses its particle: "consonant", "vowel" or
    "rieul" (ㄹ). Hangul by its last syllable's final consonant; digits and Latin letters as
    Korean reads them, which for Latin words is a good guess, not a rule."""
    word = _UNREAD_END.sub("", word) or word
    last = word[-1:]
    if "\uac00" <= last <= "\ud7a3":
        final = (ord(last) - 0xAC00) % 28
        return "vowel" if final == 0 else "rieul" if final == 8 else "consonant"
    if "0" <= last <= "9":
        return _DIGIT_SOUNDS[int(last)]
    letters = re.search(r"[A-Za-z]+$", word)
    if letters is None:
        return "vowel"
    run = letters.group(0)
    if run.isupper() or len(run) == 1:
        return _LETTER_SOUNDS.get(run[-1].upper(), "vowel")
    run = run.lower()
    if _LATIN_RIEUL.search(run):
        return "rieul"
    return "consonant" if _LATIN_CONSONANT.search(run) else "vowel"


def particle(word: str, written: str) -> str:
    """The form of the particle `written` ("와(과)", "이(가)", "(으)로"…) that follows `word`:
    particle("잘못된 변경", "와(과)") == "과", particle("etcd", "와(과)") == "와"."""
    after_consonant, after_vowel, after_rieul = _PARTICLES[written]
    sound = final_sound(word)
    if sound == "vowel":
        return after_vowel
    return after_rieul if sound == "rieul" else after_consonant


def tn(key: str, lang: str, count: int, **values: object) -> str:
    """The string `key` for a number of things: `key_one` where one thing reads differently
    ("1 case", not "1 cases"). `values` fill the string; `n` defaults to the count."""
    chosen = f"{key}_one" if count == 1 and f"{key}_one" in _STRINGS else key
    return t(chosen, lang, **({"n": count} | values))


def strings_for(lang: str) -> dict[str, str]:
    return {key: value[lang] for key, value in _STRINGS.items()}


_PRECISION_NOTE = {
    "month": {"ko": "일 미상", "en": "day not given"},
    "year": {"ko": "월 미상", "en": "month not given"},
}


# `occurred: unknown`: the sources give no date. Short on cards ("Occurred: unknown"), and said
# outright on the case page.
_UNKNOWN_DATE = {
    "short": {"ko": "미상", "en": "unknown"},
    "note": {"ko": "미상 (출처에 날짜가 없음)", "en": "Unknown (the sources give no date)"},
}


def date_text(value: str, lang: str, note: bool = False) -> str:
    """A partial date (YYYY, YYYY-MM or YYYY-MM-DD) as a reader of `lang` writes it, never more
    precise than it is: "2024-03" is "March 2024" / "2024년 3월", not a made-up first day.
    `note` adds what is not known ("day not given"), for the case page's facts. `unknown` (an
    `occurred` the sources do not date) reads as such, with the reason under `note`."""
    if not is_known(value):
        return _UNKNOWN_DATE["note" if note else "short"][lang]
    parts = [int(p) for p in value.split("-")]
    year, month, day = (parts + [0, 0])[:3]
    if lang == "ko":
        text = f"{year}년" + (f" {month}월" if month else "") + (f" {day}일" if day else "")
    else:
        text = str(year)
        if month:
            text = (
                f"{MONTHS_EN[month - 1]} {year}"
                if not day
                else f"{day} {MONTHS_EN[month - 1]} {year}"
            )
    precision = "day" if day else "month" if month else "year"
    if note and precision != "day":
        text += f" ({_PRECISION_NOTE[precision][lang]})"
    return text
