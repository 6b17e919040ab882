"""Validation of ruleset files: schema and semantic checks, each reported as
``FILE:LINE: key.path: message``.

The broken files are written here; the expected line numbers are counted in them by
hand.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from reference_impl.rules import spec_dir
from reference_impl.rules.validate import validate_articles, validate_paths

BUILTINS = sorted((spec_dir() / "rulesets").glob("*.yaml"))


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def lines(paths: list[Path]) -> list[str]:
    return [str(v) for v in validate_paths(paths)]


@pytest.mark.parametrize("path", BUILTINS, ids=[p.stem for p in BUILTINS])
def test_every_builtin_ruleset_validates(path: Path) -> None:
    assert lines([path]) == []


def test_all_builtins_together_validate() -> None:
    assert validate_paths() == []


def test_broken_file_reports_file_line_and_key_path(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.yaml", """\
        id: broken
        title: Broken
        extends: fide-2023
        pawn:
          promotion:
            to: [queen, wizard]
            cite: fide-2023:99.1
          double_step:
            from_rank: 12
        pieces:
          knight:
            letter: Q
        castling:
          uci: sideways
        """)
    found = lines([path])
    name = str(path)
    assert f"{name}:6: pawn.promotion.to[1]: 'wizard' is not a piece defined in 'pieces'" in found
    assert f"{name}:7: pawn.promotion.cite: unknown article 'fide-2023:99.1' (not in spec/articles/)" in found
    assert any(v.startswith(f"{name}:9: pawn.double_step.from_rank: 12 is greater than") for v in found)
    assert f"{name}:12: pieces.knight.letter: letter 'Q' already used by queen" in found
    assert any(v.startswith(f"{name}:14: castling.uci: 'sideways' is not one of") for v in found)


def test_invalid_yaml_is_one_line_with_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "syntax.yaml", "id: s\ntitle: [unclosed\npawn: {}\n")
    found = lines([path])
    assert len(found) == 1
    assert found[0].startswith(f"{path}:4: invalid YAML:") or found[0].startswith(f"{path}:3: invalid YAML:")


def test_not_a_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, "list.yaml", "- a\n- b\n")
    assert lines([path]) == [f"{path}:1: a ruleset file must be a YAML mapping"]


def test_missing_required_entry_is_reported_where_the_section_is(tmp_path: Path) -> None:
    """A rule entry without cite: the resolved table lacks a required key."""
    path = write(tmp_path, "nocite.yaml", """\
        id: nocite
        title: No cite
        extends: fide-2023
        pieces:
          amazon:
            letter: A
            rides: [[1, 0], [1, 1]]
            leaps: [[1, 2]]
            symmetry: all
        """)
    found = lines([path])
    assert f"{path}:5: pieces.amazon: 'cite' is a required property" in found


def test_unknown_top_level_key(tmp_path: Path) -> None:
    path = write(tmp_path, "typo.yaml", "id: typo\ntitle: T\nextends: fide-2023\ncastlng: {}\n")
    found = lines([path])
    assert found == [f"{path}:4: castlng: unknown key 'castlng'"]


def test_extends_target_must_exist(tmp_path: Path) -> None:
    path = write(tmp_path, "orphan.yaml", "id: orphan\ntitle: O\nextends: nowhere\n")
    assert lines([path]) == [f"{path}:3: extends: unknown ruleset 'nowhere'"]


def test_aliases_unique_across_files(tmp_path: Path) -> None:
    path = write(tmp_path, "thief.yaml", "id: thief\ntitle: T\nextends: fide-2023\naliases: [uscf]\n")
    found = lines([path])
    assert any(v.startswith(f"{path}:4: aliases[0]: 'uscf' is already the id or an alias of") for v in found)


def test_castling_rook_must_be_a_piece(tmp_path: Path) -> None:
    path = write(tmp_path, "rookless.yaml", "id: rookless\ntitle: R\nextends: fide-2023\ncastling:\n  rook: tower\n")
    assert f"{path}:5: castling.rook: 'tower' is not a piece defined in 'pieces'" in lines([path])


def test_null_removal_is_valid_as_written(tmp_path: Path) -> None:
    path = write(tmp_path, "noep.yaml", "id: noep\ntitle: N\nextends: fide-2023\npawn:\n  en_passant: ~\n")
    assert lines([path]) == []


def test_chess960_numbering_must_match_its_back_rank(tmp_path: Path) -> None:
    """Drop one knight/rook/king code: 9 codes give 864 numbers, not 960."""
    path = write(tmp_path, "short960.yaml", """\
        id: short960
        title: S
        extends: fide-2023-chess960
        setup:
          numbering:
            steps:
              - {place: bishop, files: [b, d, f, h], cite: "scharnagl:light-bishop"}
              - {place: bishop, files: [a, c, e, g], cite: "scharnagl:dark-bishop"}
              - {place: queen, nth_empty: 6, cite: "scharnagl:queen"}
              - {fill_empty: [NNRKR, NRNKR, NRKNR, NRKRN, RNNKR, RNKNR, RNKRN, RKNNR, RKNRQ], cite: "scharnagl:krn"}
        """)
    found = lines([path])
    assert f"{path}:6: setup.numbering.steps: the steps give 864 numbers, not count 960" in found
    assert any(v.startswith(f"{path}:10: setup.numbering.steps[3].fill_empty[8]: 'RKNRQ'") for v in found)


def test_builtin_file_named_after_its_id(tmp_path: Path) -> None:
    """Only built-in files must be named after their id; a user's file may be named freely."""
    path = write(tmp_path, "other-name.yaml", "id: my-rules\ntitle: M\nextends: fide-2023\n")
    assert lines([path]) == []


def test_builtin_article_registry_is_well_formed() -> None:
    assert validate_articles() == []


def test_registry_file_problems_are_reported_with_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "rulebook.yaml", """\
        document: other
        title: A rulebook
        articles:
          "1.1": {title: Fine}
          "1 2": {title: Bad id}
          "1.3": {}
        """)
    found = [str(v) for v in validate_articles(tmp_path)]
    assert f"{path}:1: document: document must be the file name 'rulebook'" in found
    assert f"{path}:1: source: a non-empty string is required" in found
    assert any(v.startswith(f"{path}:5: articles.1 2: article id '1 2' must match") for v in found)
    assert f"{path}:6: articles.1.3: each article needs a non-empty title" in found


def test_registry_borrowing_keys_name_registered_articles(tmp_path: Path) -> None:
    """``unchanged`` lists articles of a registered document, none of them also an article
    of this one; ``elsewhere`` gives a registered document a reason; nothing else is allowed."""
    write(tmp_path, "base.yaml", """\
        document: base
        title: Base
        source: here
        articles:
          "1": {title: One}
          "2": {title: Two}
        """)
    path = write(tmp_path, "child.yaml", """\
        document: child
        title: Child
        source: there
        unchanged:
          document: base
          articles: ["1", "9", "2"]
        elsewhere:
          base: ""
          nowhere: "a reason"
        extra: 1
        articles:
          "2": {title: Two again}
        """)
    found = [str(v) for v in validate_articles(tmp_path)]
    assert f"{path}:1: (top level): unknown keys ['extra']" in found
    assert f"{path}:6: unchanged.articles[1]: base:9 is not registered" in found
    assert f"{path}:6: unchanged.articles[2]: 2 is also an article of this document: cite one or the other" in found
    assert f"{path}:8: elsewhere.base: needs a registry document and a reason" in found
    assert f"{path}:9: elsewhere.nowhere: needs a registry document and a reason" in found
    assert len(found) == 5  # "1" is a registered article of base: no complaint


def test_duplicate_key_is_reported_at_its_second_line(tmp_path: Path) -> None:
    path = write(tmp_path, "dup.yaml", """\
        id: dup
        title: D
        extends: fide-2023
        castling:
          uci: king_takes_rook
          uci: king_to_destination
        """)
    assert lines([path]) == [f"{path}:6: castling.uci: duplicate key (only the last one counts)"]


def test_unsafe_yaml_tag_is_rejected_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "evil.yaml", "id: evil\ntitle: !!python/object/apply:os.system [echo hi]\n")
    found = lines([path])
    assert len(found) == 1
    assert found[0].startswith(f"{path}:2: invalid YAML:")


@pytest.mark.parametrize("fen, reason", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 " + "9" * 5000, "fullmove number has 5,000 digits"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "6 fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling"),
])
def test_start_fen_is_read_as_a_position_under_the_ruleset(tmp_path: Path, fen: str, reason: str) -> None:
    # FIDE 2.3 as data: a start position no command could set up is a validation error
    # on its own line, not a traceback or a failure later.
    path = write(tmp_path, "start.yaml", f"""\
        id: odd-start
        title: Odd start
        extends: fide-2023
        setup:
          initial_fen: "{fen}"
        """)
    found = lines([path])
    assert len(found) == 1 and found[0].startswith(f"{path}:5: setup.initial_fen: invalid FEN"), found
    assert reason in found[0]
