"""Training survives interrupts: SIGINT/SIGTERM save and exit 130/143, resume continues the run
folder to total_timesteps, and bad inputs fail before any run folder exists."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import torch

from training import callbacks
from training import main as main_job
from training import train as trainer

ROOT = Path(__file__).resolve().parents[2]
# Every stage fires on the first rollout of 32 steps, so a run has evaluated, snapshotted and
# checkpointed within seconds of starting to learn; total_timesteps is out of reach, so only a
# signal ends it (time_limit_minutes is a safety net should the signal be lost).
TINY = [
    "ppo.n_steps=32",
    "ppo.batch_size=32",
    "eval.every_steps=32",
    "eval.games=2",
    "league.snapshot_every_steps=32",
    "checkpoint_every_steps=32",
    "video.enabled=false",
    "progress_bar=false",
]
ENDLESS = ["total_timesteps=1000000", "time_limit_minutes=2"]


def train_args(run_dir: Path, run_name: str, *extra: str) -> list[str]:
    return [
        "--config",
        "configs/smoke_heroica.yaml",
        f"run_dir={run_dir}",
        f"run_name={run_name}",
        *TINY,
        *extra,
    ]


def wait_for(path: Path, seconds: float, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if process is not None and process.poll() is not None:
            out, err = process.communicate()
            pytest.fail(
                f"training ended (rc {process.returncode}) before {path.name} appeared:\n{err[-3000:]}"
            )
        assert time.monotonic() < deadline, f"{path} did not appear within {seconds} s"
        time.sleep(0.05)


def default_stop_signals() -> None:
    """A terminal's process gets SIGINT and SIGTERM at their defaults. A child inherits ignored
    signals, and the trainer rightly leaves an ignored signal ignored (a background job of a
    script), so a test earlier in the suite that ignored SIGINT in pytest's process (as env
    workers do) would make this run deaf to the Ctrl-C under test."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def wait_for_evaluation_at(
    run: Path, steps: int, seconds: float, process: subprocess.Popen
) -> None:
    """Until eval.csv has a whole row at ``steps`` or later (a row being written is skipped)."""
    wait_for(run / "eval.csv", seconds, process)
    deadline = time.monotonic() + seconds
    while True:
        text = (run / "eval.csv").read_text()
        whole = text[: text.rfind("\n") + 1]
        if any(int(row["timesteps"]) >= steps for row in csv.DictReader(whole.splitlines())):
            return
        if process.poll() is not None:
            pytest.fail(
                f"training ended (rc {process.returncode}) before its step-{steps} evaluation"
            )
        assert time.monotonic() < deadline, f"no evaluation at step {steps} within {seconds} s"
        time.sleep(0.05)


def eval_rows(run: Path) -> list[tuple[int, str]]:
    with (run / "eval.csv").open() as handle:
        return [(int(row["timesteps"]), row["opponent"]) for row in csv.DictReader(handle)]


@pytest.mark.slow
def test_ctrl_c_saves_the_run_and_resume_continues_it_to_total_timesteps(tmp_path, capsys):
    run = tmp_path / "run"
    # a new session = its own process group, which gets the signal as a terminal's Ctrl-C would
    process = subprocess.Popen(
        [sys.executable, "-m", "training.train", *train_args(tmp_path, "run", *ENDLESS)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=default_stop_signals,
    )
    try:
        # the step-32 evaluation runs at the end of the first rollout, before its update, so a
        # signal then would save step 0; the step-64 one means one update has been made
        wait_for_evaluation_at(run, 64, 120, process)
        os.killpg(process.pid, signal.SIGINT)
        sent = time.monotonic()
        wait_for(run / "summary.json", 60, process)
        saved_in = time.monotonic() - sent
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err[-3000:]
    # within seconds on an idle machine; the bound leaves room for a loaded CI machine and is
    # still well short of the 2-minute time limit that would end an unheeding run
    assert saved_in < 30
    summary = json.loads((run / "summary.json").read_text())
    steps = summary["timesteps"]
    assert (
        summary["interrupted"]
        and summary["signal"] == "SIGINT"
        and summary["stopped_during"] == "learning"
    )
    assert (
        summary["final"] is None and 32 <= steps < 1_000_000 and steps % 32 == 0
    )  # on the rollout grid
    checkpoint = Path(summary["checkpoint"])
    assert checkpoint == run / "checkpoints" / f"model_{steps}_steps.zip" and checkpoint.is_file()
    assert (run / "final_model.zip").is_file()
    assert f"resume_from={checkpoint}" in err.strip().splitlines()[-1]
    before = eval_rows(run)
    assert before and max(t for t, _ in before) <= steps
    snapshots = sorted(
        (
            p
            for p in (run / "snapshots").glob("snapshot_*.zip")
            if callbacks.steps_in_name(p) <= steps
        ),
        key=callbacks.steps_in_name,
    )
    assert snapshots

    # Resume in-process (no second torch import): the run_name given is not used, the checkpoint's
    # run folder is; it trains to total_timesteps counted from the run's start, not that many more.
    total = steps + 64
    assert (
        trainer.main(
            train_args(
                tmp_path, "elsewhere", f"total_timesteps={total}", f"resume_from={checkpoint}"
            )
        )
        == 0
    )
    assert not (tmp_path / "elsewhere").exists()
    summary = json.loads((run / "summary.json").read_text())
    assert summary["timesteps"] == total and not summary["interrupted"] and summary["final"]
    resumed = summary["resumed_from"]
    assert resumed["timesteps"] == steps and resumed["checkpoint"] == str(checkpoint)
    # the pool is what it was: the newest max_snapshots (2) snapshots up to the checkpoint's step
    assert resumed["opponent_pool"] == [p.stem for p in snapshots][-2:]
    assert (
        "opponent pool snapshots: " + ", ".join(resumed["opponent_pool"]) in capsys.readouterr().out
    )
    after = eval_rows(run)
    assert after[: len(before)] == before and resumed["eval_rows_kept"] == len(before)
    assert {t for t, _ in after[len(before) :]} == {steps + 32, steps + 64}


def test_sigterm_saves_the_run_and_exits_143(tmp_path):
    run = tmp_path / "term"

    def send_sigterm_once_learning():
        wait_for(run / "eval.csv", 120)
        os.kill(os.getpid(), signal.SIGTERM)  # train()'s handler is in place while it learns

    sender = threading.Thread(target=send_sigterm_once_learning, daemon=True)
    sender.start()
    previous = signal.getsignal(signal.SIGTERM)
    assert trainer.main(train_args(tmp_path, "term", *ENDLESS)) == 143
    assert signal.getsignal(signal.SIGTERM) is previous  # handlers are put back
    summary = json.loads((run / "summary.json").read_text())
    assert summary["interrupted"] and summary["signal"] == "SIGTERM"
    assert Path(summary["checkpoint"]).is_file() and (run / "final_model.zip").is_file()


def test_a_stop_drops_the_eval_rows_of_the_rollout_it_discards(tmp_path):
    """The race CI met: the evaluation at a rollout's last step has written its rows when the
    signal comes, before that rollout's update. The run saves the steps learned from (32), so
    the rows at 64, which a resume would redo, go too."""
    from training.interrupts import Interrupted

    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    with (run / "eval.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=callbacks.EVAL_FIELDS)
        writer.writeheader()
        for steps in (32, 64):
            for opponent in ("random", "heuristic"):
                row = dict.fromkeys(callbacks.EVAL_FIELDS, 0)
                writer.writerow(row | {"timesteps": steps, "opponent": opponent})

    class Model:  # what save_interrupted asks of a model: its step count and save()
        num_timesteps = 64

        def save(self, path: str) -> None:
            Path(path).write_text("weights")

    config = trainer.load_config(ROOT / "configs/smoke_heroica.yaml", [])
    progress = trainer.Progress(phase="learning", model=Model(), learned_steps=32)
    stopped = Interrupted(signal.SIGINT)
    trainer.save_interrupted(stopped, run, config, progress, 1.0, None)
    assert stopped.timesteps == 32 and stopped.checkpoint == run / "checkpoints/model_32_steps.zip"
    assert eval_rows(run) == [(32, "random"), (32, "heuristic")]


def test_envs_in_worker_processes_ignore_stop_signals(tmp_path):
    """Ctrl-C reaches SubprocVecEnv workers too, and SB3's worker loop would quit on it."""
    config = trainer.load_config(ROOT / "configs/smoke_heroica.yaml", ["n_envs=2"])
    saved = {s: signal.getsignal(s) for s in trainer.StopSignals.SIGNALS}
    threads = torch.get_num_threads()
    try:
        trainer.env_factory(config, 0)().close()  # what a worker runs first
        assert all(signal.getsignal(s) is signal.SIG_IGN for s in saved)
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
        torch.set_num_threads(threads)


def test_stop_signals_raise_at_once_or_when_checked_and_a_second_one_forces():
    received = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        with pytest.raises(trainer.Interrupted) as caught, trainer.StopSignals():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)  # the handler runs in here
        assert caught.value.exit_code == 130 and caught.value.signal_name == "SIGINT"
        with trainer.StopSignals() as stop:
            with stop.deferred():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.2)
                assert stop.requested and not received
                os.kill(os.getpid(), signal.SIGINT)  # the second goes to the previous handler
                time.sleep(0.2)
                assert received == [signal.SIGINT]
            with pytest.raises(trainer.Interrupted):
                stop.check()
    finally:
        signal.signal(signal.SIGINT, previous)


def check_refused(capsys, code: int, run_folder: Path, *needles: str) -> None:
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err  # one line
    for needle in needles:
        assert needle in err, err
    assert not run_folder.exists()


def test_a_missing_resume_from_fails_before_a_run_folder_exists(tmp_path, capsys):
    missing = tmp_path / "nope.zip"
    code = trainer.main(train_args(tmp_path, "run", f"resume_from={missing}"))
    check_refused(
        capsys,
        code,
        tmp_path / "run",
        "field 'resume_from'",
        f"override 'resume_from={missing}'",
        "no such file",
    )
    not_a_model = tmp_path / "notes.zip"
    not_a_model.write_text("not a zip")
    code = trainer.main(train_args(tmp_path, "run", f"resume_from={not_a_model}"))
    check_refused(capsys, code, tmp_path / "run", "field 'resume_from'", "not a saved model")


@pytest.mark.parametrize(
    "override, needles",
    [
        ("env.options.bogus=1", ["field 'env.options.bogus'", "unknown option", "max_rounds"]),
        (
            "env.options.max_rounds=lots",
            ["field 'env.options.max_rounds'", "positive integer", "'lots'"],
        ),
        ("env.options.mission=nowhere", ["field 'env.options'", "unknown mission", "nowhere"]),
    ],
)
def test_bad_env_options_fail_before_a_run_folder_exists(tmp_path, capsys, override, needles):
    code = trainer.main(train_args(tmp_path, "run", override))
    check_refused(
        capsys,
        code,
        tmp_path / "run",
        "configs/smoke_heroica.yaml",
        f"override '{override}'",
        *needles,
    )


def test_bad_env_options_in_the_file_name_the_file_and_field(tmp_path, capsys):
    config = tmp_path / "bad.yaml"
    config.write_text(
        (ROOT / "configs/smoke_heroica.yaml")
        .read_text()
        .replace("{max_rounds: 8}", "{max_rounds: 8, colour: red}")
    )
    code = trainer.main(["--config", str(config), f"run_dir={tmp_path}", "run_name=run"])
    check_refused(
        capsys, code, tmp_path / "run", "bad.yaml", "field 'env.options.colour'", "unknown option"
    )


def test_the_main_job_checks_env_options_before_replacing_its_folder(tmp_path, capsys):
    out = tmp_path / "main"
    out.mkdir()
    (out / "config.yaml").write_text("an earlier run")
    code = main_job.main(
        ["--config", "configs/smoke_heroica.yaml", "--out", str(out), "env.options.bogus=1"]
    )
    err = capsys.readouterr().err
    assert code == 2 and "env.options.bogus" in err and err.count("\n") == 1
    assert (out / "config.yaml").read_text() == "an earlier run"
