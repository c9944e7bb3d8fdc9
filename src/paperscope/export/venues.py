"""The full names of the venues the paper lists come from, for the `booktitle` a reference needs."""

from __future__ import annotations

PROCEEDINGS = {
    "3DV": "International Conference on 3D Vision",
    "AAAI": "AAAI Conference on Artificial Intelligence",
    "ACL": "Annual Meeting of the Association for Computational Linguistics",
    "ACM MM": "ACM International Conference on Multimedia",
    "ACML": "Asian Conference on Machine Learning",
    "AISTATS": "International Conference on Artificial Intelligence and Statistics",
    "ALT": "International Conference on Algorithmic Learning Theory",
    "AutoML": "International Conference on Automated Machine Learning",
    "COLING": "International Conference on Computational Linguistics",
    "COLM": "Conference on Language Modeling",
    "COLT": "Conference on Learning Theory",
    "CoRL": "Conference on Robot Learning",
    "CVPR": "IEEE/CVF Conference on Computer Vision and Pattern Recognition",
    "ECCV": "European Conference on Computer Vision",
    "EMNLP": "Conference on Empirical Methods in Natural Language Processing",
    "ICCV": "IEEE/CVF International Conference on Computer Vision",
    "ICLR": "International Conference on Learning Representations",
    "ICML": "International Conference on Machine Learning",
    "ICRA": "IEEE International Conference on Robotics and Automation",
    "IJCAI": "International Joint Conference on Artificial Intelligence",
    "IROS": "IEEE/RSJ International Conference on Intelligent Robots and Systems",
    "KDD": "ACM SIGKDD Conference on Knowledge Discovery and Data Mining",
    "NAACL": "Conference of the North American Chapter of the Association for Computational Linguistics",
    "NeurIPS": "Advances in Neural Information Processing Systems",
    "RSS": "Robotics: Science and Systems",
    "SIGGRAPH": "ACM SIGGRAPH Conference",
    "SIGGRAPH Asia": "ACM SIGGRAPH Asia Conference",
    "UAI": "Conference on Uncertainty in Artificial Intelligence",
    "WACV": "IEEE/CVF Winter Conference on Applications of Computer Vision",
    "WWW": "ACM Web Conference",
}
_ACL_FAMILY = {"ACL", "NAACL", "EMNLP", "COLING", "EACL", "AACL"}


def proceedings(venue: str, year: int | None, status: str | None) -> str:
    """`booktitle` for an accepted paper: "International Conference on Learning Representations (ICLR 2017)";
    ACL's Findings are their own volume; a venue already named in full (from BibTeX, say) stays as it is."""
    short = f"{venue} {year}" if year else venue
    if status and status.casefold() == "findings" and venue in _ACL_FAMILY:
        return f"Findings of the Association for Computational Linguistics: {short}"
    full = PROCEEDINGS.get(venue) or PROCEEDINGS.get(venue.upper())
    if full:
        return f"{full} ({short})"
    return venue if len(venue.split()) > 2 else short
