"""Find and repair the URLs written in abstracts."""

from __future__ import annotations

import re
import unicodedata

# A URL ends at whitespace or at a character that cannot be part of one in running text.
# (Two URLs run together, "…/Sealinghttps://github.com/…" or "…/Volcanogithub.com/…", are two URLs.)
URL_RE = re.compile(
    r"""https?://(?:(?!https?://|(?<=\w)(?:github|gitlab)\.com/)[^\s<>"'{}\\|^`\[\]])+""", re.IGNORECASE
)

# "https://github. com/owner/repo": a host broken by a space after a dot, before a common TLD.
_BROKEN_HOST_RE = re.compile(
    r"(https?://(?:[\w-]+\.)*[\w-]+\.)\s+((?:com|org|net|io|ai|edu|dev|gov|co|cn|me|info|app)\b)",
    re.IGNORECASE,
)
# A space after a code host's slash: "https://github.com/ sounio/SMGCN" (7 corpus abstracts)
_BROKEN_PATH_RE = re.compile(
    r"(https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|huggingface\.co)/)\s+(?=[\w.-]+/[\w.-])",
    re.IGNORECASE,
)
_TRAILING = ".,;:!?'\"*_"
_PAIRS = {")": "(", "]": "[", "}": "{"}
# Where code lives; a model or demo page (huggingface.co) is a link, not code.
# with the anonymised repositories of papers under review and GitHub's own short links (88 corpus papers)
_CODE_HOSTS = (
    "github.com",
    "gitlab.com",
    "bitbucket.org",
    "codeberg.org",
    "gitee.com",
    "sourceforge.net",
    "anonymous.4open.science",
    "git.io",
)
# A platform's home page links to nothing of the paper's ("project": "https://arxiv.org/", "https://github.com"),
# nor does a placeholder ("https://www.example-project.com" in five lists' "project" fields)
_PLATFORMS = (*_CODE_HOSTS, "arxiv.org", "huggingface.co", "hf.co", "kaggle.com", "paperswithcode.com")
_PLACEHOLDER = re.compile(r"(?:^|\.)example-[a-z-]+\.(?:com|org|net)$")
_BARE_HOST = re.compile(r"(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|edu|dev)/", re.IGNORECASE)
_VALID = re.compile(r"https?://[^/\s.]+\.[^/\s]", re.IGNORECASE)
# Where a list's link field names several links: "a; b", "a and b", "a (implementation: b)".
_LISTED_APART = re.compile(r"\s*;\s*|\s+(?:and\s+|\(\w+:\s*)?(?=(?:https?://|www\.|github\.com/))", re.IGNORECASE)
# A space a PDF's kerning put into a word of a link's path: "MA VEX", "BerV AE", "DatenV orsprung".
_KERNING = re.compile(r"(?<=A)\s+(?=V)|(?<=[A-Za-z]V)\s+(?=[Aa-z])")


def repair_broken_hosts(text: str) -> tuple[str, int]:
    """Join hosts, and a code host and its path, that a space split apart; returns the text and how many."""
    if "://" not in text:
        return text, 0
    text, hosts = _BROKEN_HOST_RE.subn(r"\1\2", text)
    text, paths = _BROKEN_PATH_RE.subn(r"\1", text)
    return text, hosts + paths


def strip_trailing(url: str) -> str:
    """The URL without the punctuation of the sentence around it (a period, an unmatched ')')."""
    while url:
        last = url[-1]
        if last in _TRAILING or (last in _PAIRS and url.count(last) > url.count(_PAIRS[last])):
            url = url[:-1]
        else:
            break
    return url


def listed_urls(field: str) -> list[str]:
    """The links a list's link field names, one or several."""
    return [part for part in _LISTED_APART.split(field.strip()) if part]


def _spaces_mended(url: str) -> str:
    """A link without its spaces. In the host they are a break ("github. com"): joined. In the path,
    the lists that give links with spaces wrote them for underscores ("Composition WSTG" is
    Composition_WSTG), except a PDF's kerning beside a V ("MA VEX" is MAVEX). Of the 27 such links
    in the corpus whose abstract gives a link of the same owner, 23 come out as the abstract's (the
    spaces removed: 3); of the other 4, two lost an underscore with no space left for it, and two
    abstracts cut their link short."""
    url = url.strip()
    host_end = url.find("/", url.find("://") + 3 if "://" in url else 0)
    if host_end < 0:
        return "".join(url.split())
    path = "_".join(_KERNING.sub("", url[host_end:]).split())
    return "".join(url[:host_end].split()) + path


def clean_url(url: str) -> str | None:
    """A canonical http(s) URL: no spaces, no trailing punctuation, no `.git`; None otherwise.

    A bare host and path ("github.com/owner/repo", as some lists give it) gets https://.
    """
    url = strip_trailing(_spaces_mended(unicodedata.normalize("NFKC", url)))  # NFKC: "ﬁ" (a ligature) is "fi"
    if _BARE_HOST.match(url):
        url = "https://" + url
    if not _VALID.match(url):
        return None
    scheme, rest = url.split("://", 1)
    host, slash, path = rest.partition("/")
    url = f"{scheme.lower()}://{host.lower()}{slash}{path}"
    bare_host = host.lower().removeprefix("www.")
    if (bare_host in _PLATFORMS and not path.strip("/")) or _PLACEHOLDER.search(bare_host):
        return None
    if is_code_host(url) and url.lower().endswith(".git"):
        url = url[:-4]
    return url


def is_code_host(url: str) -> bool:
    host = url.split("//", 1)[-1].split("/", 1)[0].lower().removeprefix("www.")
    return host in _CODE_HOSTS
