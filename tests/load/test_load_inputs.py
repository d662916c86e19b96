"""What the build may read (load/inputs.py): a symbolic link is followed only to a file inside
the project and outside its hidden folders; a link that leaves, loops, dangles or names a folder,
and anything that is not a plain file, is an error naming the file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.load.inputs import input_problems


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "docs" / "ko").mkdir(parents=True)
    (root / "docs" / "ko" / "about.md").write_text("# 소개\n", encoding="utf-8")
    (root / "overrides").mkdir()
    (root / "overrides" / "main.html").write_text("{% extends 'base.html' %}\n", encoding="utf-8")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("token\n", encoding="utf-8")
    (root / "README.md").write_text("# readme\n", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("secret\n", encoding="utf-8")
    return root


def problems(root: Path) -> list[str]:
    return [p.format() for p in input_problems(root, [root / "docs", root / "overrides"])]


def test_a_clean_project_has_none(project: Path):
    assert problems(project) == []


def test_a_link_to_a_file_inside_the_project_is_followed(project: Path):
    (project / "docs" / "readme.md").symlink_to("../README.md")
    assert problems(project) == []


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/proc/self/environ", "outside the project"),
        ("/etc/passwd", "outside the project"),
        ("../../secret.txt", "outside the project"),
        ("../.git/config", "into .git/, a hidden folder"),
        ("nowhere.md", "which does not exist"),
        ("loop.md", "loops back on itself"),
        ("..", "link to a folder"),
        ("/", "outside the project"),
        ("/dev/zero", "outside the project"),
    ],
)
def test_a_link_that_must_not_be_followed_is_named(project: Path, target: str, expected: str):
    link = project / "docs" / "loop.md" if target == "loop.md" else project / "docs" / "x.md"
    link.symlink_to(target)
    found = problems(project)
    assert len(found) == 1, found
    assert found[0].startswith(f"docs/{link.name}:1:1: is a symbolic link")
    assert expected in found[0]


def test_links_deep_inside_any_input_folder_are_found(project: Path):
    deep = project / "overrides" / "partials" / "a" / "b"
    deep.mkdir(parents=True)
    (deep / "env.html").symlink_to("/proc/self/environ")
    (project / "docs" / "ko" / "loop").symlink_to("../../docs")
    assert [p.split(":")[0] for p in problems(project)] == [
        "docs/ko/loop",
        "overrides/partials/a/b/env.html",
    ]


def test_special_files_are_named(project: Path):
    os.mkfifo(project / "docs" / "pipe.md")
    assert problems(project) == [
        "docs/pipe.md:1:1: is a FIFO (named pipe), not a file; the build reads only files"
    ]


def test_an_input_folder_outside_the_project_is_refused(project: Path, tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    found = [p.format() for p in input_problems(project, [elsewhere])]
    assert len(found) == 1 and "is outside the project" in found[0]


def test_an_input_that_is_itself_a_link_out_is_refused(project: Path):
    (project / "mkdocs.yml").symlink_to("/etc/passwd")
    found = [p.format() for p in input_problems(project, [project / "mkdocs.yml"])]
    assert found == [
        "mkdocs.yml:1:1: is a symbolic link to /etc/passwd, outside the project; the build reads "
        "only files inside it: commit the file itself"
    ]


def test_a_project_reached_through_a_link_is_still_the_project(project: Path, tmp_path: Path):
    alias = tmp_path / "alias"
    alias.symlink_to(project, target_is_directory=True)
    (project / "docs" / "readme.md").symlink_to("../README.md")
    assert [p.format() for p in input_problems(alias, [alias / "docs"])] == []
