"""The notation tables: schema, citations, and the facts the issue and the Laws state.

Expectations come from the issue's Uedemann definition (a1 = ba, h1 = la, a8 = ma,
h8 = za), the published Gringmuth example "gegoseso" (1.e4 e5), the ICCF examples
(e2-e4 = 5254, f7-f8=R = 67682), FIDE C.3 and the PGN standard's NAG list.
"""

from __future__ import annotations

import jsonschema
import pytest
import yaml

from reference_impl.notation import codes
from reference_impl.notation.nags import glyph_to_nag, nag_glyph, nag_meaning, parse_nag
from reference_impl.notation.tables import TABLE_NAMES, _validator, piece_letters, spec_root, table
from reference_impl.rules.articles import known_cites


def _cites(value: object) -> list[str]:
    if isinstance(value, dict):
        out = [v for k, v in value.items() if str(k).endswith("cite") and isinstance(v, str)]
        return out + [c for v in value.values() for c in _cites(v)]
    if isinstance(value, list):
        return [c for v in value for c in _cites(v)]
    return []


@pytest.mark.parametrize("name", TABLE_NAMES)
def test_every_table_is_schema_valid_and_cites_known_articles(name: str) -> None:
    data = table(name)
    assert data["table"] == name
    unknown = sorted(set(_cites(data)) - known_cites())
    assert unknown == []


def test_schema_rejects_a_piece_letter_that_is_a_file_letter() -> None:
    data = yaml.safe_load((spec_root() / "notation" / "pieces.yaml").read_text(encoding="utf-8"))
    data["languages"]["en"]["letters"]["bishop"] = "b"
    with pytest.raises(jsonschema.ValidationError):
        _validator().validate(data)


def test_schema_rejects_a_short_tag_roster() -> None:
    data = yaml.safe_load((spec_root() / "notation" / "pgn.yaml").read_text(encoding="utf-8"))
    data["seven_tag_roster"].pop()
    with pytest.raises(jsonschema.ValidationError):
        _validator().validate(data)


def test_required_languages_have_all_piece_letters() -> None:
    for code in ("en", "de", "fr", "es", "it", "nl", "ru", "tg", "uz", "hy"):
        letters = piece_letters(code)
        assert {"king", "queen", "rook", "bishop", "knight"} <= set(letters)


def test_tajik_letters_as_the_issue_lists_them() -> None:
    letters = piece_letters("tg")
    assert [letters[p] for p in ("king", "queen", "rook", "bishop", "knight", "pawn")] == ["Ш", "Ф", "Р", "Фл", "А", "П"]


def test_fide_2023_c3_examples_f_for_fou_and_l_for_loper() -> None:
    assert piece_letters("fr")["bishop"] == "F"
    assert piece_letters("nl")["bishop"] == "L"


def test_uedemann_corners_as_the_issue_defines() -> None:
    assert [codes.uedemann_square(sq) for sq in (0, 7, 56, 63)] == ["ba", "la", "ma", "za"]


def test_uedemann_codes_are_64_distinct_two_letter_syllables() -> None:
    names = {codes.uedemann_square(sq) for sq in range(64)}
    assert len(names) == 64
    assert all(codes.parse_uedemann_square(codes.uedemann_square(sq)) == sq for sq in range(64))


def test_uedemann_table_reproduces_the_gringmuth_example_gegoseso() -> None:
    e2, e4, e7, e5 = 12, 28, 52, 36
    assert "".join(codes.uedemann_square(s) for s in (e2, e4, e7, e5)) == "gegoseso"


def test_iccf_squares_a1_11_h8_88_e4_54() -> None:
    assert (codes.iccf_square(0), codes.iccf_square(63), codes.iccf_square(28)) == ("11", "88", "54")
    assert [codes.iccf_promotion_digit(p) for p in ("queen", "rook", "bishop", "knight")] == ["1", "2", "3", "4"]


def test_iccf_old_promotion_form_names_the_original_square() -> None:
    assert codes.iccf_piece_for_original_square("41", 0) == "queen"
    assert codes.iccf_piece_for_original_square("48", 1) == "queen"
    assert codes.iccf_piece_for_original_square("71", 0) == "knight"
    assert codes.iccf_piece_for_original_square("51", 0) is None  # no promotion to a king


def test_descriptive_ranks_count_from_each_side() -> None:
    assert codes.descriptive_square(28, 0) == "K4"  # e4 for White
    assert codes.descriptive_square(28, 1) == "K5"  # e4 for Black
    assert codes.descriptive_square(0, 1) == "QR8"
    assert sorted(codes.parse_descriptive_square("B3", 0)) == [18, 21]  # c3, f3


def test_pgn_10_nags_0_to_139_with_meanings() -> None:
    nags = table("nags")["nags"]
    assert sorted(nags) == list(range(140))
    assert nag_meaning(7) == "forced move (all others lose quickly)"
    assert nag_meaning(139) == "Black has severe time control pressure"
    assert nag_meaning(200) == "reserved"


def test_nags_1_to_19_glyphs_and_suffixes() -> None:
    expected = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", 13: "∞", 14: "⩲", 15: "⩱",
                16: "±", 17: "∓", 18: "+−", 19: "−+"}
    assert {n: nag_glyph(n) for n in expected} == expected
    assert glyph_to_nag()["!?"] == 5
    with pytest.raises(ValueError):
        parse_nag("$256")


def test_a_broken_table_is_one_error_naming_file_and_key(tmp_path, monkeypatch) -> None:
    import shutil

    from reference_impl.notation import tables

    shutil.copytree(spec_root() / "notation", tmp_path / "notation")
    shutil.copytree(spec_root() / "schema", tmp_path / "schema")
    (tmp_path / "rulesets").mkdir()
    broken = tmp_path / "notation" / "iccf.yaml"
    broken.write_text(broken.read_text(encoding="utf-8").replace("queen: 1,", "queen: one,"), encoding="utf-8")
    monkeypatch.setenv("ARBITER_SPEC_DIR", str(tmp_path))
    with pytest.raises(tables.NotationTableError) as error:
        table("iccf")
    message = str(error.value)
    assert "iccf.yaml" in message and "promotion_digits/digits/queen" in message and "\n" not in message


def test_hooper_whyld_uedemann_letters_queen_side_file_first_king_side_rank_first() -> None:
    # Files A E I O O I E A, ranks B D F G H K L P (Hooper and Whyld, as summarised publicly)
    assert [codes.hooper_whyld_square(sq) for sq in (0, 3, 4, 7, 56, 63)] == ["AB", "OB", "BO", "BA", "AP", "PA"]
    assert len({codes.hooper_whyld_square(sq) for sq in range(64)}) == 64
