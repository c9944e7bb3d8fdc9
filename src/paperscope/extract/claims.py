"""Quantitative result claims as structured facts: value, unit, direction, metric, benchmark and baseline.

A sentence is cut into the stretch each value owns: text between two values goes to the earlier one up
to the first conjunction ("9.58% speedup over EAGLE-3 | and 8.80% over ViSpec"), and clauses end at
";", "while", "whereas" and "but". Values joined only by "and" and commas ("+59.4% and +69.7% on
Countdown and Sudoku") form one group that shares what surrounds it, split respectively when the group
names as many benchmarks or baselines as it has values. A field the value's stretch does not say is
left empty rather than borrowed from a neighbour.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from paperscope.extract.entities import find_benchmarks, find_models
from paperscope.extract.text import outermost, sentences
from paperscope.model import Claim

_DIGIT = re.compile(r"\d")
_NUMBER = r"[+\-−]?\d+(?:,\d{3})*(?:\.\d+)?"
_UNIT = (
    r"(?:\s?%|\s?×(?![\s\d-]*\d)(?!-)|x(?![\w-])|\s?(?:percent(?:age)? points?|percent|pp|points?|pts|FPS)\b|"
    r"\s[A-Z][\w@-]*\s(?:points|pts)\b|-fold\b|\s?times\b)"
)
_RANGE = r"\s?(?:–|—|-|∼|~|to)\s?"
_VALUE = re.compile(rf"(?<![\w.$^@{{-])(?:[<>≤≥]\s?)?(?:{_NUMBER}{_UNIT}?{_RANGE})?{_NUMBER}{_UNIT}(?:\+)?")
# Metric heads, with the modifiers papers put before them ("average reasoning accuracy", "top-1 error").
_METRICS = (
    r"accurac(?:y|ies)(?: loss| drop| degradation)?|win rate|F-score|F-measure|F1|Dice|BLEU|METEOR|CIDEr|"
    r"ROUGE(?:-\w+)?|CIDEr-D|mAP|AP|AUC|AUROC|PSNR|SSIM|FID|EM|exact match|"
    r"returns?|score|success rate|[Pp]ass@\d+|perplexity|WER|CER|mIoU|IoU|NDCG(?:@\d+)?|MRR|Hits@\d+|"
    r"recall(?:@\d+)?|R@\d+(?:\.\d+)?|precision(?:@\d+)?|speedups?|acceleration|solve rate|error rate|error|reward|"
    r"Elo|throughput|"
    r"latency|runtime|wall-clock time|inference time|training time|FLOPs|memory(?: usage| footprint)?|"
    r"(?:computation|computational|storage|communication|training|inference) costs?|correlation"
)
_MODIFIER = (
    r"(?:(?:average|mean|overall|absolute|relative|zero-shot|few-shot|one-shot|top-\d|macro|micro|Macro|"
    r"Micro|weighted|end-to-end|reasoning|classification|predictive|generation|retrieval|detection|"
    r"segmentation|test|validation|task|word|character)\s+)*"
)
_ALL_MODIFIERS = re.compile(_MODIFIER, re.IGNORECASE)
# Not a compound's part: "memory-enhanced", "precision-recall balance" name no metric ("F1-score" does).
_METRIC = re.compile(rf"(?<!-)\b{_MODIFIER}(?:{_METRICS})(?:\s+scores?)?(?![\w@]|-(?!scores?\b)[a-z])", re.IGNORECASE)
_SCORE = (
    r"[+\-−]?(?:\d{2,}(?:,\d{3})*(?:\.\d+)?|\d\.\d+)"  # a bare result has two digits at least: "achieves 1" is not one
)
_BARE = re.compile(
    rf"(?:\b(?:reach(?:es|ing)?|achiev(?:es|ing)|obtain(?:s|ing)?|attain(?:s|ing)?|scor(?:es|ing)|exceeding|"
    rf"surpassing|by)\s+(?:an?\s+)?(?:average\s+)?(?:of\s+)?)(?P<value>{_SCORE})(?![\w%×]|\.\d|\s?(?:{_UNIT}|[BMK]\b|"
    r"(?:(?:different|distinct|unique|individual|separate|healthy|human)\s+)?"  # "by 20 different subjects"
    r"(?:"
    rf"million|billion|thousand|bits?|GB|tasks|languages|datasets|benchmarks|models|layers|samples|examples|"
    rf"parameters|hours|days|steps|tokens|times|entries|images|instances|annotations|frames|videos|subjects|"
    rf"participants|users|documents|sentences|words|objects|classes|categories|people|patients)))"
)
# Numbers before a metric, alone or coordinated: "70.9 perplexity", "7.2 and 5.0 BLEU".
_BEFORE_METRIC = re.compile(rf"(?<![\w.$@-])(?P<values>{_NUMBER}(?:(?:,\s*|,?\s+and\s+){_NUMBER})*)\s+(?:{_METRICS})\b")
_ONE_NUMBER = re.compile(_NUMBER)
_WORDED_HOLDS = ("magnitude", "of times", "factor of")  # what each match of _WORDED holds one of
# Magnitudes in words: "over an order of magnitude", "four orders of magnitude", "hundreds of times", "more than a
# factor of three".
_MORE_OF = re.compile(r"\s+(?:more|less|fewer|larger|smaller)\s+(?:data|parameters|samples|examples|tokens|compute)")
_WORDED = re.compile(
    r"\b(?:(?:over|more than|nearly|almost|about|up to|roughly)\s+)?"
    r"(?:(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|several|many|multiple|(?:a\s+)?few|\d+)\s+)?"
    r"(?:(?:orders? of magnitude|(?:tens|hundreds|thousands) of times|factor of (?:two|three|four|five|ten))\b|"
    rf"factor of \d+(?:\.\d+)?(?:[xX×]?{_RANGE}\d+(?:\.\d+)?)?(?:[xX×](?!\w)|(?!\w|\.\d)))"  # "3.7x", "14 to 116"
    rf"(?!\s?/)(?!{_RANGE}\d)"  # "a factor of 1/p" is no factor of 1
)
# "from 4.04% to 26.15%", "4.04% → 26.15%": the second is the result, the first what it was before.
_FROM_TO = re.compile(
    rf"\bfrom\s+(?P<old>{_NUMBER}%?)(?:\s*\((?P<was>[^)]*)\))?\s+to\s+"
    rf"(?:(?:over|about|approximately|nearly|around|just|only|below|under|as (?:low|high|much|little) as)\s+)?"
    rf"(?P<new>{_NUMBER}%?)|"
    rf"(?<![\w.@])(?P<before>{_NUMBER}%?)\s*(?:→|->|⟶)\s*(?P<after>{_NUMBER}%?)"
)
# A unit of measure after "from A to B": a range ("diameters from 4 to 50 mm"), not a result.
_MEASURE = re.compile(r"\s?(?:mm|cm|km|m|nm|µm|kg|g|Hz|kHz|MHz|GHz|ms|s|min|h|V|W|°|degrees)\b")
# Before "from A to B", a span it covers: "ranging from 0 to 1", "aged from 7 to 14", "spanning from 1950".
_SPAN_BEFORE = re.compile(r"\b(?:rang(?:e|es|ed|ing)|span(?:s|ned|ning)?|aged?|var(?:y|ies|ied|ying))\s+$")
# Two whole numbers "from A to B" are a span ("from 20 to 724 variables") far more often than a result,
# which papers write as scores or percentages ("from 56.1 to 66.0", "from 4.04% to 26.15%"), or after
# the metric's name.
_WHOLE_NUMBER = re.compile(r"\d{1,9}")
_CHANGED = re.compile(r"\b(?:improv|reduc|increas|decreas|rais|lower|boost|cut)\w*\s")  # "reduce … from 86 to 0"
# What a value is a share of when it is no result: "1% of the parameters", "100% of SAM's total parameters",
# "using only 1% labeled data of MS-COCO", "using only 1% pose annotated training data".
_ONE_WORD = r"(?!(?:more|less|fewer)\s)[\w-]+\s+"  # "1% pose annotated", not "two orders of magnitude fewer labeled"
_SETUP_AFTER = re.compile(
    rf"^\s?(?:(?:of|in)?\s*(?:the\s+)?(?:(?:{_ONE_WORD})?(?:un)?label+ed\s+|(?:{_ONE_WORD})?annotated\s+)?|"
    r"of\s+(?:the\s+)?(?:[\w'’-]+\s+){1,2}?)"
    r"(?:parameters|data|training|tokens|"
    r"samples|examples|tasks|languages|GPU|memory|layers|size|inputs?)\b",
    re.IGNORECASE,
)
# A label budget: "with less than 4% of only two dimensional ground-truth labels", "0.1% randomly annotated points".
# No claim, but where its neighbours' words end: "less" is the budget's, not the next value's direction.
_BUDGET_AFTER = re.compile(
    r"^\s?of\s+(?:the\s+)?(?:(?:only|[\w'’-]+(?<!fewer)(?<!less))\s+){0,4}?(?:labels|annotations)\b"
    r"|^\s?(?:\w+ly\s+)?(?:(?:un)?label+ed|annotated)\s+(?:points|images|pixels|frames|data|samples|examples)\b",
    re.IGNORECASE,
)
# Numbers sharing a word unit: "gains of 12.10, 6.51, and 2.85 percentage points" (each value gets the unit).
_SHARED_UNIT = re.compile(
    rf"(?<![\w.$-])(?P<values>{_NUMBER}(?:(?:,\s*|,?\s+and\s+){_NUMBER})+)\s+"
    r"(?P<unit>percent(?:age)? points|percent|points|pp)\b"
)
_SHARED_UNIT_HOLDS = ("percent", "points", "pp")
# The value in brackets after what a result is compared with is that one's: "outperforming baselines such
# as E5-Mistral-7B-Instruct (15.0%) and BM25 (9.8%)", "outperform the existing state-of-the-art model (73.99%)".
# Only a name between: "outperforms X by a large margin (> 20%)", "gains over Y in perplexity (+13.9%)" are
# the paper's own figures. Over the corpus's claims this drops 19, read one by one: 18 others' figures, 1 the
# paper's ("82.1%", said after a dropped "(90%)" whose measure it took).
_THAN = r"(?<!more )(?<!less )(?<!fewer )(?<!greater )than"  # not "fewer than half (35.71%)"
_COMPARED_WITH = rf"compared (?:to|with)|vs\.?|versus|{_THAN}"
_NAMED_ONLY = r"(?:(?!(?:by|in|on|for|at|with|of|from|to|margin|and)\s|\d)[^\s,;()]+\s+){1,8}"
_THEIRS = re.compile(
    rf"\b(?:outperform\w*|surpass\w*|exceed\w*|beat\w*|over|{_COMPARED_WITH})\s+"
    rf"(?:{_NAMED_ONLY}?\([^()]*\)(?:,\s*|,?\s+and\s+))*{_NAMED_ONLY}?\($"
)
# The same after what set the mark that is beaten: "surpass the state of the art accuracy set by the highly
# specialized Hierarchical Bayesian Program Learning (HBPL) system (3.3%)". Not a mark the authors' own
# work set ("the new record set by our model (85.3%)").
_SET_BY = re.compile(
    r"\b(?:set|achieved|reported|held|obtained|attained|established) by\s+(?!our\b|the proposed\b|this\b|we\b)"
    r"(?:(?:(?!(?:in|on|for|at|with|from|to|margin|and)\s|\d)[^\s,;()]+|\([^()%\d]*\))\s+){1,12}\($"
)
_GAIN_WORD = re.compile(r"\b(?:improv|increas|gain|reduc|decreas|better|faster|higher|lower|fewer|less|boost)")
_ASIDE = re.compile(r"\([^()]*\)")  # a bracket with none inside it
_REST_OF_BRACKET = re.compile(r"[^()%×]{0,60}\)")  # "than “AlexNet” (16.0% top-5 error, 10-view test)"
_FACTOR_OR_RANGE = re.compile(rf"[×x]$|times|fold|\d%?{_RANGE}[+\-−]?\d")
# What others had, not a result: "where prior art has 27.9% accuracy, our method achieves 55.7%".
_PRIOR_HAS = re.compile(
    r"\b(?:prior (?:art|work|methods?)|previous (?:work|methods?|approaches|best)|the (?:previous|prior) best|"
    r"(?:the )?baselines?|existing (?:methods?|approaches))\s+(?:only\s+)?(?:has|have|had|achieved?|achieves|"
    r"obtain(?:s|ed)?|gets?|got|reach(?:es|ed)?|scores?|scored|attain(?:s|ed)?)\s+(?:an?\s+|only\s+|a mere\s+)?"
    r"(?:[\w-]+\s+(?:of\s+)?){0,2}$"
)
# What the comparison is against, not a result: "72.7% on Kinetics compared to 72.0% and 65.6% with …".
_AGAINST = re.compile(
    rf"(?:{_COMPARED_WITH})\s+(?:up to\s+)?"  # "than up to 13 times larger datasets"
    r"(?:the\s+)?(?:(?:an?|the)\s+(?:[\w-]+\s+){1,3}of\s+)?$"  # "compared to an error of 31%"
    # "compared to an occupancy grid map obtained with GMapping which attained 23% error"
    r"|compared (?:to|with)\s+[^.;%×]{1,80}?\b(?:which|that)\s+(?:only\s+)?"
    r"(?:attain|achiev|obtain|reach|ha[sd]|ha[sv]e|scor|yield)\w*\s+(?:an?\s+)?(?:[\w-]+\s+(?:of\s+)?){0,2}$"
)
# Others' results as the sentence reports them: "DaDN was reported to be 300x faster than …"
_REPORTED = re.compile(r"\b(?:(?:was|were|has been|have been|had been) reported to|reportedly)\b")
# How often something happens, not a factor: "a sentence that is repeated over 60,000 times"
_COUNTED = re.compile(
    r"\b(?:repeated|occur(?:s|red|ring)?|appear(?:s|ed|ing)?|executed|visited|cited|downloaded|viewed|played)\s+"
    r"(?:over\s+|more than\s+|about\s+|nearly\s+|up to\s+|at least\s+)?$"
)
# What a value sets, not what it achieves: "remains effective at a noise level up to 40%", "a pruning ratio of 50%"
_SETTING_BEFORE = re.compile(
    r"\b(?:noise|corruption|masking|mask|dropout|sparsity|missing|occlusion|pruning)\s+"
    r"(?:levels?|rates?|ratios?|probabilit(?:y|ies))\s+(?:of\s+)?(?:up to\s+|as high as\s+|above\s+|over\s+)?$",
    re.IGNORECASE,
)
# The metric a verb acts on ("reducing the mean Chamfer distance by 79.9%"), what a gain is of ("relative
# improvements of 15.66%"), and a comparative after the value ("5.3× faster", "3x faster generation efficiency").
_BY = (
    r"(?:\s*\([^)]{1,20}\))?\s+(?:by\s+(?:up to\s+|about\s+|around\s+|over\s+|more than\s+|nearly\s+|only\s+|"
    r"(?:an?\s+)?average\s+of\s+)?|from\s+)$"
)
_BY_END = re.compile(r"\bby\s+(?:up to\s+|about\s+|around\s+|over\s+|more than\s+|nearly\s+|only\s+)?$")
_VERB_OBJECT = re.compile(
    r"\b(?:improv|reduc|boost|increas|lower|decreas|cut|rais|enhanc|shorten|accelerat)\w*\s+"
    rf"(?:the\s+|its\s+|their\s+|our\s+)?(?P<np>[\w@#.-]+(?:\s+[\w@#.-]+){{0,5}}?){_BY}"
)
_GAIN_OF = re.compile(
    r"(?P<np>(?:[\w-]+\s+){0,3}?)(?:improvements?|gains?|reductions?|increases?|drops?|"
    r"downgrades?|degradations?)\s+of\s+(?:up to\s+|about\s+|around\s+|only\s+)?$"
)
# What stands before a gain and is not what it is of: "showing a", "we observe", "our method yields"
_GAIN_LEAD = re.compile(
    r"^(?:.*\s)?(?:an?|the|we|our|their|its|it|this|which|that|is|are|was|were|has|have|had|see|saw|seen|"
    r"(?:obtain|yield|deliver|report|attain|offer|present|represent|mark|result|show)(?:s|ed|ing)?|shown|"
    r"(?:achiev|provid|observ|demonstrat|giv)(?:e|es|ed|ing)|gave|given|bring|brings|bringing|brought|"
    r"reach(?:es|ed|ing)?|lead(?:s|ing)?|led|showcas(?:e|es|ed|ing))\s+(?:(?:in|to)\s+)?",
    re.IGNORECASE,
)
_BARE_GAIN = re.compile(r"(?:improvements?|gains?|reductions?|increases?|drops?|downgrades?|degradations?)")
_COMPARATIVE = re.compile(
    r"^\s*(?P<m>(?:faster|slower|smaller|larger|fewer|cheaper)(?:\s+(?!than\b|compared\b|"
    r"during\b|on\b|in\b|with\b|at\b|for\b|and\b)[a-z][\w-]*){0,2})"
)
_OF_THE = re.compile(r"^\s*(?:of\s+(?:the\s+)?|in\s+(?:terms\s+of\s+)?)?")  # "by 7% in (terms of) accuracy"
_NP_STOP = re.compile(r"\s(?:of|in|on|for|across|with|over|compared|relative|when|while)\s.*$")
_AND_VERB = re.compile(r",?\s(?:and|while|whereas)\s+(?:it\s+|also\s+|further\s+)?[a-z]+(?:s|ed|ing)\s")
_NOT_AGAINST = re.compile(r"\b(?:averaged|aggregated|evaluated|tested|trained|measured|[Ee]xperimental results)\s+$")
_CLAUSE_END = re.compile(r";|\s(?:while|whereas)\s|,\s+but\s")  # not "a well-trained but static speculator"
_CONJUNCTION = re.compile(r",|\s(?:and|or|while|whereas)\s")
# A value followed by a word of its own says what it measures ("2.9x compression"), unlike "8.80% over ViSpec".
_OWN_WORD = re.compile(
    r"^\s*(?!(?:over|than|on|in|for|with|at|against|compared|relative|vs|versus|and|or|respectively|across|"
    r"when|while|from|to|of|by|higher|lower|better|worse|more|less|improvements?|gains?|reductions?|"
    r"increases?|decreases?|drops?)\b)[A-Za-z]"
)
# With no conjunction between two values, what leads up to the second is its own: "80.4% mIoU on
# Cityscapes with | a frame rate of 26 FPS", "2.9x compression on ResNet-50 with only | a top-5 accuracy
# drop of 0.35%".
_OWN_LEAD = re.compile(
    r"(?<=\s)(?:an?|the)\s+(?:[\w@-]+\s+){1,4}of\s+(?:(?:up to|about|only|around|at most|at least|over|nearly|"
    r"approximately|more than)\s+)?$"
)
_ONLY_CONJUNCTIONS = re.compile(r"^(?:\s*(?:,|and|or)\s*)+$")
# A baseline is the noun phrase after a comparing word; it ends before punctuation and before the
# words that start what the sentence says next ("by 32.6%", "on ImageNet", "and 8.80% over …").
_COMPARE_AFTER = re.compile(
    r"\b(?:(?<![Ii]ntersection )over|than|compared (?:to|with)|relative to|vs\.?|versus|outperform(?:s|ing|ed)?|"
    r"surpass(?:es|ing|ed)?|beat(?:s|ing)?|exceed(?:s|ing|ed)?)\s+"
)
_NP_END = re.compile(
    r"[,;:()\[\]]|\.(?!\d)|\s[-–—]\s|\s(?:by|on|in|at|across|with|while|when|for|under|using|without|that|which|who|"
    r"respectively|up to|equal to|offering|yielding|achiev\w*|reach\w*|"
    r"(?:and|or)\s+(?:achiev|reach|improv|reduc|obtain|outperform|more|less|"
    r"better|worse|higher|lower)\w*)\b|"
    r"(?<!\bof)\s(?:and\s+)?(?:up to\s+|about\s+|nearly\s+|over\s+|more than\s+)?[+\-−]?\d"
)
_DEMONSTRATIVES = "that|those|these|this"  # "compared to that without GPUDirect": what the sentence does not name
_ARTICLE_ONLY = re.compile(rf"^(?:the|a|an|all|both|its|their|our|{_DEMONSTRATIVES})?$", re.IGNORECASE)
_UNNAMED = re.compile(rf"\s*(?:{_DEMONSTRATIVES})\b", re.IGNORECASE)
# A year after a name ("JPEG 2000"), where a baseline phrase would end at its number; not a value ("2000×").
_NAME_END = re.compile(r"\b[A-Z][\w.+-]*$")
_NAMED_YEAR = re.compile(r"\s(?:19|20)\d\d(?![\d.,]*\d|\s?(?:[%×x]|times|points|pp)\b|%|×)")
# What a baseline phrase cut at a preposition or a number ends with, which is not part of its name: an
# adverb ("outperforming the state of the art significantly"), a participle whose object was cut ("methods
# based | on SVMstruct", "models trained | on non-adversarial data"); a phrase ending in an adjective lost
# its noun ("the strong | 256-epoch 128-GPU baseline", "a highly competitive | and accurate … baseline").
_TRAILING = re.compile(
    r"(?:\s+(?:significantly|substantially|considerably|consistently|greatly|markedly|notably|clearly|largely|"
    r"remarkably|dramatically|only|trained|used|based|built|designed|reported|obtained|evaluated|tested|"
    r"whenever\s.*|(?:it|they)\s+(?:is|was|are|were)))+$"
)
_DANGLING = re.compile(r"\s(?:strong|competitive|highly|very|powerful|popular|accurate|efficient|robust)$")
# A phrase a verb acts on that starts so is no metric: "improves upon the state …", "by an average improvement",
# "improvements ranging from 2% to 11%".
_NOT_A_METRIC = re.compile(
    r"^(?:upon|by|in|on|with|of|over|to|for|at|from|as|and|or|ranging|range|varying)\b", re.IGNORECASE
)
_OWN_RESULT = re.compile(
    r"\b(?:we|our|ours|achiev\w*|outperform\w*|reach\w*|obtain\w*|attain\w*|yield\w*|surpass\w*)\b", re.IGNORECASE
)
# Sentences about others' results: "In previous work, risk-bounded searches were shown to offer 70% …".
_OTHERS_RESULTS = re.compile(
    r"^\s*(?:in\s+)?(?:(?:the\s+)?(?:previous|prior|earlier|past|existing)\s+(?:work|works|studies|research|"
    r"literature|methods|approaches)|it has been shown|"
    r"(?:based on|according to) (?:the )?(?:literature|previous|prior))\b",
    re.IGNORECASE,
)
# The authors speaking of their own work. A number in a sentence before the first that does is the
# field's, from the motivation ("CLIP … achieving 76.3% top-1 accuracy on ImageNet", "DBNs have achieved
# accuracy rates of 98.8%"), unless that sentence reports results ("The experimental results show …").
# Over the corpus's 14,708 claims this drops 77, read one by one: 76 the field's, 1 the paper's (its
# name, not "we", introduces it: "ACEFusion is … the system … achieves 30 FPS").
_OWN_VOICE = re.compile(
    r"\b(?:we|our|ours|the (?:paper|article)|(?:this|the current|the present) "
    r"(?:paper|work|study|article|letter|thesis)|the (?:proposed|developed|presented|designed|new)\b)\b",
    re.IGNORECASE,
)
_REPORTS_RESULTS = re.compile(
    r"\bexperimentally\b|\b(?:experiments?|experimental|results?|evaluations?|simulations?|tests?|trials?)\b"
    r"[^.;]{0,40}?\b(?:show|demonstrat|indicat|reveal|confirm|prove|verif)",
    re.IGNORECASE,
)
# "870 on HopperStand": a coined name after the value names where it was measured.
_NAME = r"[A-Z][a-z0-9]*[A-Z0-9][\w.+-]*[\w+]"  # "MuSiQue", "UCF-Crime", "GSM8k": shaped as a dataset's name
_ON = r"^\s*(?:\S+\s+){0,3}?on\s+(?:the\s+)?"  # "on", within a few words: "results on the", "and on"
_ON_NAME = re.compile(rf"{_ON}(?P<name>{_NAME})")
_NAMED_AFTER_DASH = re.compile(rf"\s[-–—]\s(?P<name>{_NAME})(?![\w-])")
_ITEM = r"[A-Z0-9][\w.+-]*(?:\s[A-Z0-9][\w.+-]*)*"
_ON_LIST = re.compile(
    rf"{_ON}(?P<items>{_ITEM}(?:\s*,\s*(?:and\s+)?{_ITEM}|\s+and\s+{_ITEM})+)"
    r"(?:\s+(?:datasets?|benchmarks?|tasks?)\b|,?\s+respectively\b|\s*(?:[.;)]|$))"
)
_ON_CAPITALISED = re.compile(rf"{_ON}[A-Z]")
_LIST_GOES_ON = re.compile(r"\s*(?:,|and\b)\s*[A-Z0-9]")  # "on CamVid and CityScapes": one of a list
# "on uproof)", "on CIFAR-10": where a value was measured; not "on average NDCG@10", "on the convergence speed".
_ON_OTHER = re.compile(r"^\s*\)?\s*on\s+(?:the\s+)?(?:[A-Z0-9][\w-]*|[a-z][\w-]*\s*(?:[),.;]|$))")
_REDUCES = re.compile(
    r"\b(?:reduc\w*|lower\w*|decreas\w*|cuts?|cutting|fewer|less|drops?|dropp\w*|sav\w*|"
    r"shrink\w*|smaller|downgrade\w*|degrad\w*)\b|reduction",
    re.IGNORECASE,
)
_ACTS_ON = re.compile(
    r"\b(?:sav|reduc|cut|improv|increas|boost|lower|decreas|eliminat|remov)\w*\s+"
    r"(?:(?:up to|about|around|over|more than|nearly|only|almost|approximately|roughly|at least)\s+)?$"
)
_SHARE_OF = re.compile(
    r"^(?:,?\s*respectively,?)?\s+of\s+(?:the\s+|all\s+|those\s+|its\s+|their\s+)?"
    r"(?!which\b|(?:reduction|improvement|increase|decrease|acceleration|speed-?up|gain)s?\b)[a-z]"
)
# After a value, "with fewer parameters" says what it cost, not which way the value went ("2× fewer FLOPs" does).
_COST = re.compile(r"\s+(?:[\w-]+\s+)?(?:parameters|data|samples|examples|tokens|compute|memory|FLOPs|GPUs?)\b")
_ROOM_TO = r"(?:room|gap|headroom)\s+(?:to|for)\s+"
_ROOM = re.compile(rf"\b{_ROOM_TO}$", re.IGNORECASE)
# "leaves a surprising 10-20% accuracy gap for improvement": what is left to gain, no result
_LEFT_TO_GAIN = re.compile(rf"^\s*(?:[\w-]+\s+){{0,3}}{_ROOM_TO}(?:further\s+)?improv", re.IGNORECASE)
# "comparable attack performance (almost 100% success rate) to …": a value on par with another, no change
_PARITY = re.compile(
    r"(?<!by a )\b(?:comparable|on[- ]par|competitive|similar)\s+(?:[\w-]+\s+){0,2}"
    r"\(?\s*(?:almost|about|nearly|around|~)?\s*$",
    re.IGNORECASE,
)
_NEAR_CUE = re.compile(
    r"^\s*(?:[\w-]+\s+){0,2}(?:faster|slower|speed-?ups?|improvements?|higher|lower|fewer|less|more)\b"
)
_IMPROVES = re.compile(
    r"\b(?:improv\w*|increas\w*|gains?|boost\w*|outperform\w*|higher|better|faster|speed(?:s|ing)?[- ]?ups?|"
    r"surpass\w*|exceed\w*|rais\w*|enhanc\w*|accelerat\w*|advanc\w*)\b",
    re.IGNORECASE,
)


@dataclass
class _Value:
    start: int
    end: int
    text: str
    baseline: str | None = None  # "from A to B": A
    baseline_name: str | None = None  # "from 54.3 (joint training) to 57.0": what gave A
    before: str = ""  # the text this value owns before and after it
    after: str = ""
    clause: str = ""
    budget: bool = False  # a label budget (_BUDGET_AFTER)
    group: int = 0


def find_claims(abstract: str, benchmarks: list[str] | None = None) -> list[Claim]:
    """Every quantitative result claim, in order; a number it is unsure of is left out.

    `benchmarks` are those the abstract names (found here when not given).
    """
    named = find_benchmarks(abstract) if benchmarks is None else benchmarks
    claims: list[Claim] = []
    said = sentences(abstract)
    own_from = next((at for at, sentence in enumerate(said) if _OWN_VOICE.search(sentence)), 0)
    # First heard in the last third, in an abstract written without "we" ("The presented technology could
    # …" last): no turn from the motivation, whose sentences before would all be lost.
    if own_from * 3 > len(said) * 2:
        own_from = 0
    for at, sentence in enumerate(said):
        if _OTHERS_RESULTS.match(sentence) or (at < own_from and not _REPORTS_RESULTS.search(sentence)):
            continue
        if _DIGIT.search(sentence) or any(map(sentence.__contains__, _WORDED_HOLDS)):
            claims += _sentence_claims(_plain_math(sentence), [n for n in named if n in sentence])
    return [claim for claim in claims if _says_what(claim)]


def _says_what(claim: Claim) -> bool:
    """A number with nothing said of it (no metric, benchmark, baseline or direction) is kept only in a
    sentence about the paper's own results: elsewhere it was as often a statistic of the motivation or a
    share of the data ("Cardiac arrest … with an in-hospital mortality rate of ∼80%") as a result."""
    return bool(
        claim.metric
        or claim.benchmark
        or claim.baseline
        or claim.direction
        or claim.unit == "FPS"
        or _OWN_RESULT.search(claim.text)
    )


def _sentence_claims(sentence: str, named: list[str]) -> list[Claim]:
    values = _values(sentence)
    if not values:
        return []
    _assign_context(sentence, values)
    claims: list[Claim] = []
    for group in _groups(values):
        group = [value for value in group if not value.budget and not _LEFT_TO_GAIN.match(value.after)]
        if not group:
            continue
        if (
            _AGAINST.search(sentence, max(0, group[0].start - 120), group[0].start)
            or _REPORTED.search(sentence, 0, group[0].start)
            or _SETTING_BEFORE.search(sentence, max(0, group[0].start - 60), group[0].start)
            or (
                group[0].text.endswith("times")
                and _COUNTED.search(sentence, max(0, group[0].start - 40), group[0].start)
            )
            or _PRIOR_HAS.search(sentence, max(0, group[0].start - 80), group[0].start)
            or _theirs(sentence, group, values)
        ):
            continue
        if sentence.endswith("within ", 0, group[0].start):  # "within 63% of the optimal path": no change
            continue
        found = _group_claims(sentence, group, named, values)
        if claims and group[0].clause == values[values.index(group[0]) - 1].clause:
            bare = not group[0].before.strip() and not _OWN_WORD.match(group[-1].after) and "FPS" not in group[0].text
            found = [_elided(claim, claims[-1], bare) for claim in found]
        claims += found
    return claims


def _theirs(sentence: str, group: list[_Value], values: list[_Value]) -> bool:
    """A value alone in brackets after what the result is compared with: that one's figure. Not a factor
    ("outperform … Ceres (41.45×)" is how much faster) nor a range ("baselines (55.3% to 63.9%)": theirs
    to ours)."""
    return _theirs_alone(sentence, group) or _theirs_listed(sentence, group, values)


def _theirs_alone(sentence: str, group: list[_Value]) -> bool:
    if len(group) != 1 or not (rest := _REST_OF_BRACKET.match(sentence, group[0].end)):
        return False
    value = group[0]
    if _FACTOR_OR_RANGE.search(value.text) or _GAIN_WORD.search(rest.group()):
        return False  # "over … detection (5% relative increase in mean average precision)": the paper's gain
    if value.text[0] in "+-−" and not sentence[value.end :].lstrip().startswith(")"):  # "(+3.2% mIoU)": a gain
        return False
    return _after_what_is_beaten(sentence, value.start)


_COMPARING = re.compile(r"\b(?:vs|versus|compared|than|from|to|over|against)\b")


def _theirs_listed(sentence: str, group: list[_Value], values: list[_Value]) -> bool:
    """Values listed in one bracket, which they open, after what the result is compared with: that one's
    figures ("surpassing previous fine-tuned models (6.5% on AIME24, 59.2% on MATH500)"); not gains ("(+3.2%
    and +1.5%)", "outperforms the state of the art (up to 2.7%)")."""
    start, end = group[0].start, group[-1].end
    bracket = next((b for b in _ASIDE.finditer(sentence) if b.start() < start and end < b.end()), None)
    if bracket is None:
        return False
    opened, closed = bracket.start(), bracket.end() - 1
    inside = [value.start for value in values if opened < value.start < closed]
    # one value is _theirs_alone's; "(63.3% up from 43.9%)", "(95.2% vs. 89.53%)" set the paper's beside theirs
    if len(inside) < 2 or sentence[opened + 1 : inside[0]].strip() or _COMPARING.search(sentence, opened, closed):
        return False
    if _GAIN_WORD.search(sentence, opened, closed) or any(
        value.text[0] in "+-−" or _FACTOR_OR_RANGE.search(value.text) for value in group
    ):
        return False
    return _after_what_is_beaten(sentence, opened + 1)


def _after_what_is_beaten(sentence: str, at: int) -> bool:
    """Whether the text before `at` ends with what the result is compared with, or what set the mark it beats."""
    window = max(0, at - 160)
    return bool(_THEIRS.search(sentence, window, at) or _SET_BY.search(sentence, window, at))


def _elided(claim: Claim, previous: Claim, bare: bool) -> Claim:
    """What a value leaves unsaid is its neighbour's: the direction ("improving A by 8% and B by 3%"), and
    when nothing of its own stands before or after it the metric too ("9.58% speedup over EAGLE-3 and 8.80%
    over ViSpec"; not "80.4% mIoU on Cityscapes with a frame rate of 26 FPS", "4.7x FLOPs reduction and
    2.9x compression")."""
    return replace(
        claim,
        metric=claim.metric or (previous.metric if bare else None),
        direction=claim.direction or previous.direction,
    )


def _what_gave_it(match: re.Match) -> str | None:
    """What gave the value before, when a bracket names it: "from 54.3 (joint training) to 57.0"."""
    was = match.group("was")
    return was.strip() if was and re.search(r"[^\W\d_]", was) and not re.search(r"\d", was) else None


def _values(sentence: str) -> list[_Value]:
    """The values, earliest first: "from A to B" first, then values with units, then bare numbers."""
    found: list[tuple[int, int, int, str, str | None]] = []
    budgets: set[tuple[int, int]] = set()
    named: dict[tuple[int, int], str] = {}  # (start, end) of "from A (NAME) to B": NAME
    for match in _FROM_TO.finditer(sentence) if "from" in sentence or "→" in sentence or "->" in sentence else ():
        if _MEASURE.match(sentence, match.end()):  # "bores with diameters from 4 to 50 mm": a range, no result
            continue
        old, new = ("old", "new") if match.group("old") else ("before", "after")
        if _SPAN_BEFORE.search(sentence, 0, match.start()) or (
            _WHOLE_NUMBER.fullmatch(match.group(old))
            and _WHOLE_NUMBER.fullmatch(match.group(new))
            and not _METRIC.search(sentence, max(0, match.start() - 60), match.start())
            and not _CHANGED.search(sentence, max(0, match.start() - 60), match.start())
        ):  # "ranging from 0 to 1", "ages from 0 to 80": a span, no result ("BLEU … from 56 to 66" is one)
            continue
        found.append((0, match.start(old), match.end(new), match.group(new), match.group(old)))
        if old == "old" and (name := _what_gave_it(match)):
            named[(match.start(old), match.end(new))] = name
    for match in _VALUE.finditer(sentence):
        if not _SETUP_AFTER.match(sentence[match.end() :]):
            found.append((1, match.start(), match.end(), match.group().strip(), None))
            if _BUDGET_AFTER.match(sentence[match.end() :]):
                budgets.add((match.start(), match.end()))
    for match in _WORDED.finditer(sentence) if any(map(sentence.__contains__, _WORDED_HOLDS)) else ():
        if not _SETUP_AFTER.match(sentence[match.end() :]) and not _MORE_OF.match(sentence, match.end()):
            found.append((1, match.start(), match.end(), match.group(), None))
    for match in _BARE.finditer(sentence):
        found.append((2, match.start("value"), match.end("value"), match.group("value"), None))
    for match in _BEFORE_METRIC.finditer(sentence):
        for number in _ONE_NUMBER.finditer(sentence, match.start("values"), match.end("values")):
            found.append((2, number.start(), number.end(), number.group(), None))
    for match in _SHARED_UNIT.finditer(sentence) if any(map(sentence.__contains__, _SHARED_UNIT_HOLDS)) else ():
        for number in _ONE_NUMBER.finditer(sentence, match.start("values"), match.end("values")):
            found.append((1, number.start(), number.end(), f"{number.group()} {match.group('unit')}", None))
    taken: list[_Value] = []
    for _, start, end, text, baseline in sorted(found):
        if not any(start < v.end and v.start < end for v in taken):
            text = text.replace("x", "×") if text.endswith("x") else text
            taken.append(_Value(start, end, text, baseline, named.get((start, end)), budget=(start, end) in budgets))
    return sorted(taken, key=lambda v: v.start)


def _assign_context(sentence: str, values: list[_Value]) -> None:
    """Each value's own stretch of the sentence and its clause, and its group of coordinated values."""
    ends = [m.start() for m in _CLAUSE_END.finditer(sentence)]
    group = -1
    for i, value in enumerate(values):
        start = max([0, *(e + 1 for e in ends if e < value.start)])
        value.clause = sentence[start : min([len(sentence), *(e for e in ends if e >= value.end)])]
        previous = values[i - 1] if i else None
        if previous is not None and previous.end >= start:
            between = sentence[previous.end : value.start]
            if _ONLY_CONJUNCTIONS.match(between):
                value.group = previous.group
                continue
            cut = _CONJUNCTION.search(between)
            lead = None if cut else _OWN_LEAD.search(between)
            previous.after = between[: (cut or lead).start()] if cut or lead else between
            value.before = between[cut.end() :] if cut else lead.group() if lead else ""
        else:
            value.before = sentence[start : value.start]
            if previous is not None:
                previous.after = _own(sentence[previous.end : min(e for e in ends if e >= previous.end)])
        group += 1
        value.group = group
    last = values[-1]
    last.after = _own(sentence[last.end : min([len(sentence), *(e for e in ends if e >= last.end)])])


def _own(after: str) -> str:
    """What follows a value up to where the sentence goes on to say something else ("… and outperforms X")."""
    cut = _AND_VERB.search(after)
    return after[: cut.start()] if cut else after


def _groups(values: list[_Value]) -> list[list[_Value]]:
    groups: dict[int, list[_Value]] = {}
    for value in values:
        groups.setdefault(value.group, []).append(value)
    return list(groups.values())


_OVER_BENCHMARKS = re.compile(r"\bbenchmarks?\b", re.IGNORECASE)


def _group_claims(sentence: str, group: list[_Value], named: list[str], values: list[_Value]) -> list[Claim]:
    before, after = group[0].before, group[-1].after
    metric = _metric(group[0].text, after, before)
    found = _benchmarks_in(after, named) or _benchmarks_in(before, named)
    if len(group) > 1 and len(found) == 1 and _one_of_a_list(group[0].clause, found[0]):
        found = []
    benchmarks = _each(group, found)
    if benchmarks == [None] * len(group) and len(group) > 1:
        benchmarks = _listed(after, len(group), named)
    if benchmarks == [None] * len(group):
        on = _on_name(after) or _on_own_clause(before)
        # "by 21.5% and 12.3% on GSM8k, HotPotQA, …": the first of a list is not where every value was measured
        benchmarks = [None if on and len(group) > 1 and _one_of_a_list(after, on) else on] * len(group)
    if (
        benchmarks == [None] * len(group)
        and len(set(named)) == 1
        and _whole(group[0].clause, named[0])
        and not _ON_OTHER.match(after)  # "… on ProofNet and 2.4% → 9.6% on uproof": not on ProofNet
        and not _ON_CAPITALISED.match(before)  # "…, and on Last Letter from 23.8% to 84.2%": not on AQuA
        and not (len(group) > 1 and _one_of_a_list(group[0].clause, named[0]))
        # "+4.0% across 30 downstream tasks (including +8.2% on MMLU)": MMLU is the other value's
        and not _in_anothers_bracket(sentence, named[0], group, values)
    ):
        benchmarks = [named[0]] * len(group)
    if metric and _OVER_BENCHMARKS.search(metric):  # "the 8-benchmark average": measured on none of them alone
        benchmarks = [None] * len(group)
    baseline = _baseline(after, before)
    baselines = _each(group, _split(baseline) if len(group) > 1 else [baseline] if baseline else [])
    return [
        Claim(
            value=value.text,
            unit=_unit(value.text),
            direction=_direction(value, before, after, metric),
            metric=metric,
            benchmark=benchmark,
            baseline=f"{value.baseline_name} ({value.baseline})" if value.baseline_name else value.baseline or baseline,
            text=sentence.strip()[:300],
        )
        for value, benchmark, baseline in zip(group, benchmarks, baselines, strict=True)
    ]


def _in_anothers_bracket(sentence: str, name: str, group: list[_Value], values: list[_Value]) -> bool:
    """Whether every mention of `name` stands in a bracket that holds other values and none of the group's."""
    mentions = [m.start() for m in re.finditer(re.escape(name), sentence)]
    brackets = [(m.start(), m.end()) for m in _ASIDE.finditer(sentence)]
    mine = {value.start for value in group}

    def anothers(at: int) -> bool:
        return any(
            start < at < end
            and not any(start < v < end for v in mine)
            and any(start < value.start < end for value in values if value.start not in mine)
            for start, end in brackets
        )

    return bool(mentions) and all(map(anothers, mentions))


def _each(group: list[_Value], found: list[str]) -> list[str | None]:
    """One item per value: respectively when there are as many as values, else the one item shared."""
    if len(found) == len(group):
        return list(found)
    return [found[0] if len(found) == 1 else None] * len(group)


def _listed(after: str, count: int, named: list[str]) -> list[str | None]:
    """The benchmarks of the list the values were measured on ("on GSM8k, HotPotQA, CofCA, MuSiQue, and
    BeerQA, respectively"), one item per value, by place, when the list has as many items as there are
    values: those this extraction knows, and the others shaped as a dataset's name that are no model's
    ("65% and 48% on ResNet-18 and MobileNetV2 respectively"); None for the rest."""
    listed = _ON_LIST.match(after)
    items = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", listed.group("items")) if listed else []
    if len(items) != count:
        return [None] * count
    return [item if item in named or (_a_name(item) and not find_models(item)) else None for item in items]


def _one_of_a_list(text: str, name: str) -> bool:
    """The benchmark is listed with another this extraction does not know ("in InterCode SQL and ALFWorld"):
    values reported on the list are not all its."""
    name = re.escape(name)
    return bool(
        re.search(rf"[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*\s*(?:,|,?\s+and)\s+{name}\b", text)
        or re.search(rf"\b{name}\s*(?:,|,?\s+and)\s+[A-Z]", text)
    )


_OTHER_CLAUSE = re.compile(r"[,;]|\s(?:with|while|whereas|but|at)\s")


def _metric(value: str, after: str, before: str) -> str | None:
    """The metric the value's own words name, nearest first; None when they name none."""
    inside = _METRIC.search(value)  # "4.7 AUC points"
    if inside:
        return _tidy(inside.group())
    head = _METRIC.match(after, _OF_THE.match(after).end())  # "90.7% solve rate", "30% of the wall-clock time"
    if head:
        return _tidy(head.group())
    comparative = _COMPARATIVE.match(after)
    if comparative and comparative.group("m"):
        return comparative.group("m")
    acted_on = _VERB_OBJECT.search(before) or _GAIN_OF.search(before)
    unsaid = False  # the verb's object is no metric ("improves upon the state …"): none from further back
    if acted_on:
        phrase = _NP_STOP.sub("", re.sub(r"^(?:the\s+)?(?:number|amount) of\s+", "", acted_on.group("np"))).strip()
        named = _METRIC.search(phrase)
        if named and named.end() == len(phrase):  # "MMLU accuracy" is accuracy; "FLOPs and memory accesses" stays
            return _tidy(named.group())
        if acted_on.re is _GAIN_OF:  # "LLM with relative improvements of": relative improvements
            phrase = acted_on.group().rsplit(" of", 1)[0].strip().rsplit(" with ", 1)[-1]
        # "by an average improvement", "(with) gains of 27.4%": what it is of is unsaid
        unsaid = bool(_NOT_A_METRIC.match(phrase) or _BARE_GAIN.fullmatch(phrase))
        if acted_on.re is _GAIN_OF:  # "showing a performance improvement of": performance improvement
            phrase = _GAIN_LEAD.sub("", phrase)
            unsaid = unsaid or bool(_BARE_GAIN.fullmatch(phrase))  # "yielding an improvement of"
        if phrase and not unsaid and not _ARTICLE_ONLY.match(phrase):
            return phrase
    found = [] if unsaid else [m.group() for m in _METRIC.finditer(before)]
    if found:
        return _tidy(found[-1])
    near = _METRIC.search(_OTHER_CLAUSE.split(after[:40], maxsplit=1)[0])  # not "98% savings with less accuracy"
    return _tidy(near.group()) if near else None


def _tidy(metric: str) -> str:
    """ "Macro F1 score" is Macro F1; "score" alone stays."""
    bare = re.sub(r"\s+scores?$", "", metric)
    return metric if _ALL_MODIFIERS.fullmatch(bare + " ") else bare  # "average score" stays


def _benchmarks_in(text: str, named: list[str]) -> list[str]:
    """The named benchmarks the text mentions, in order; not one only inside another ("CIFAR-10" within
    "CIFAR-100" is not a mention of it, "CIFAR-10 and CIFAR-100" mentions both)."""
    kept = outermost([(start, name) for name in set(named) for start in _whole_at(text, name)])
    return list(dict.fromkeys(name for _, name in sorted(kept)))


def _whole(text: str, name: str) -> bool:
    return next(_whole_at(text, name), None) is not None


def _whole_at(text: str, name: str) -> Iterator[int]:
    """Where the name stands in the text as a whole word."""
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not text[at - 1].isalnum()) and (end == len(text) or not text[end].isalnum()):
            yield at
        at = text.find(name, at + 1)


def _on_name(after: str) -> str | None:
    """What a value was measured on ("on HopperStand"); not a model it was measured with ("3 times speedup on
    BERT-base", "on CenterPoint"), hardware ("on GPUs") or a metric ("on F1-score")."""
    match = _ON_NAME.match(after)
    name = match.group("name") if match else None
    if not name or not _a_name(name) or find_models(name) or _HARDWARE.fullmatch(name):
        return None
    return name


def _on_own_clause(before: str) -> str | None:
    """What the value's own clause says it was measured on ("…, and on Last Letter from 23.8% to 84.2%");
    not one of a list ("on CamVid and CityScapes")."""
    on = _on_name(before)
    if on is None or _LIST_GOES_ON.match(before, before.find(on) + len(on)):
        return None
    return on


_HARDWARE = re.compile(r"[CGT]PUs?|FPGAs?|ASICs?", re.IGNORECASE)


# Not a dataset's name: a word made of one ("ILP-based", "GPU-enabled"), an acronym's plural ("MRFs", "ViTs")
_NOT_A_NAME = re.compile(r".*-(?:based|enabled|like|aware|driven|free|level|style)|.*[A-Z]s")


def _a_name(name: str) -> bool:
    """Shaped as a dataset's name, and not an acronym in capitals ("LLM") or a metric's name ("F1-score")."""
    return (
        bool(re.fullmatch(_NAME, name))
        and not name.isupper()
        and not _NOT_A_NAME.fullmatch(name)
        and not _METRIC.fullmatch(name)
        and not _METRIC.fullmatch(name.replace("-", " "))
    )


def _baseline(after: str, before: str) -> str | None:
    """The baseline: compared with after the value ("… over ViSpec"), else before it ("outperforms X by 3%")."""
    for text in (after, before):
        compared = [m.end() for m in _COMPARE_AFTER.finditer(text) if not _NOT_AGAINST.search(text, 0, m.start())]
        for at in compared if text is after else reversed(compared):  # the nearest the value first
            if phrase := _noun_phrase(text[at:]):
                return phrase
            if text is after and _UNNAMED.match(text, at):
                return None  # "compared to that without GPUDirect": with what the sentence does not name
    if re.match(r"\s*(?:the|that of)\s", after) and not _METRIC.match(after.strip()):  # "3× the strongest baseline"
        return _noun_phrase(after.strip())
    return None


def _noun_phrase(text: str) -> str | None:
    if not text or text[0].isdigit() or text[0] in "+-−":
        return None
    end = _NP_END.search(text)
    # "smaller than JPEG 2000", "over the ILSVRC 2014 winner": a year after a name is the name's
    while end and _NAME_END.search(text, 0, end.start()) and (year := _NAMED_YEAR.match(text, end.start())):
        end = _NP_END.search(text, year.end())
    if end and (named := _NAMED_AFTER_DASH.match(text, end.start())):
        return named.group("name")  # "over previous models - DyGIE++": the one named
    phrase = (text[: end.start()] if end else text).strip()
    phrase = re.sub(r"(?:\s+(?:and|or|of|to|at|as|over))+$", "", phrase)  # "surpassing existing methods over 30%"
    phrase = _TRAILING.sub("", phrase)  # "methods based (on …)", "the state of the art significantly"
    phrase = re.sub(r"(?:^|\s+)(?:and|or|when|being)$", "", phrase)  # what was before the adverb: "… and only"
    if _ARTICLE_ONLY.match(phrase) or len(phrase) > 80 or phrase.split()[0].lower() in ("time", "the course"):
        return None
    if _DANGLING.search(phrase):  # cut before its noun: "over the strong 256-epoch 128-GPU baseline"
        return None
    return None if _NOT_A_METRIC.match(phrase) else phrase  # "outperforms by 4%": "by" is no baseline


def _split(phrase: str | None) -> list[str]:
    """ "CRISS and m2m-100" into its parts, so that values reported respectively each get one."""
    if phrase is None:
        return []
    parts = [p.strip() for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", phrase) if p.strip()]
    return parts if len(parts) > 1 else [phrase]


def _unit(value: str) -> str | None:
    lower = value.lower()
    for mark, unit in (
        ("magnitude", "×"),
        ("factor", "×"),
        ("percentage point", "pp"),
        ("percent point", "pp"),
        ("percent", "%"),
        ("pp", "pp"),
        ("%", "%"),
        ("point", "points"),
        ("pts", "points"),
        ("×", "×"),
        ("times", "×"),
        ("fold", "×"),
        ("fps", "FPS"),
    ):
        if mark in lower:
            return unit
    return None


def _direction(value: _Value, before: str, after: str, metric: str | None) -> str | None:
    """improves or reduces, when the value's sign, its "from A to B" or its own words say; none for a rise of
    what is better low ("a 1.43% increase in the top-5 error", "increasing the mean power loss by 28%"), which
    "improves" would misstate."""
    if value.text[0] in "-−":
        return "reduces"
    if value.text[0] == "+":
        return "improves"
    # "in 58% of test cases" is a share, not a change; "saves up to 94% of computation time" is one
    if value.text.endswith("%") and _SHARE_OF.match(after) and not (_BY_END.search(before) or _ACTS_ON.search(before)):
        return None
    if value.baseline is not None:
        try:
            old, new = (float(x.rstrip("%").replace(",", "")) for x in (value.baseline, value.text))
        except ValueError:
            return None
        return "reduces" if new < old else "improves"
    # a bracket of its own is a side remark: "test (higher stress) groups … 80.5%" improves nothing
    before, after = (_ASIDE.sub(" ", part) if "(" in part else part for part in (before, after))
    cues = [(len(before) - m.end(), "reduces", m.group()) for m in _REDUCES.finditer(before)]
    cues += [(len(before) - m.end(), "improves", m.group()) for m in _IMPROVES.finditer(before)]
    if cues and _BY_END.search(before):  # "outperforms X by 0.7": the verb before "by" says it
        return _said(min(cues), metric)
    if _PARITY.search(before) and not _NEAR_CUE.match(after):  # not "similar quality 50 times faster"
        return None
    cues += [(m.start(), "reduces", m.group()) for m in _REDUCES.finditer(after) if not _a_cost(after, m)]
    cues += [
        (m.start(), "improves", m.group())
        for m in _IMPROVES.finditer(after)
        if not (_a_cost(after, m) or _a_hope(after, m))
    ]
    return _said(min(cues), metric) if cues else None


def _said(cue: tuple[int, str, str], metric: str | None) -> str | None:
    _, direction, word = cue
    if direction == "improves" and metric and _RISE.fullmatch(word) and _BETTER_LOW.search(metric):
        return None
    return direction


_RISE = re.compile(r"increas\w*|higher|rais\w*", re.IGNORECASE)  # a rise, not a gain: "improves" is one
_BETTER_LOW = re.compile(r"\b(?:errors?|loss|misclassification|latency|perplexity|WER|CER|FID)\b", re.IGNORECASE)


def _a_cost(after: str, cue: re.Match[str]) -> bool:
    return after.endswith("with ", 0, cue.start()) and bool(_COST.match(after, cue.end()))


def _a_hope(after: str, cue: re.Match[str]) -> bool:
    """ "77.4% accuracy, indicating that there is still significant room to improve": a gap, not a gain."""
    return bool(_ROOM.search(after, 0, cue.start()))


_THIN_SPACE = re.compile(r"(?<=\d,)\\[!,;]\s*(?=\d)")


def _plain_math(text: str) -> str:
    """Multiplication signs as papers mean them: "1.5$\\times$" is 1.5×."""
    if "\\times" not in text:
        return text
    text = _THIN_SPACE.sub("", text)  # "$1,\!000\times$" is 1,000×
    text = re.sub(r"\$\s*(\d+(?:,\d{3})*(?:\.\d+)?)\s*\\times\s*\$", r"\1×", text)
    return re.sub(r"\$?\\times\$?", "×", text)
