package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// The datapath's priority. The kernel's own AP datapath runs in softirq
// context, ahead of every process; airqd's runs in a process and, at the
// default nice of 0, a TCP sender or receiver on the same core preempts it
// at each frame it wakes it for. airqd then handles a frame or two per
// wake-up, and every hop pays a thread switch. At nice -10 it drains what is
// ready before it yields: on the one-core qemu test bed that cut the thread
// switches per TCP segment five-fold and raised downlink TCP through airqd
// from 8-20 to 66-73 Mbit/s.

// setNice gives every thread of the process the nice value n. Linux keeps
// nice per thread and a new thread inherits its creator's, so once all
// existing threads have it, so do the ones the runtime starts later; the
// loop repeats for a thread started while it ran.
func setNice(n int) error {
	for range 10 {
		changed := false
		tids, err := threadIDs()
		if err != nil {
			return err
		}
		for _, tid := range tids {
			cur, err := threadNice(tid)
			if err != nil || cur == n {
				continue // gone, or already there
			}
			if err := unix.Setpriority(unix.PRIO_PROCESS, tid, n); err != nil {
				if errors.Is(err, unix.ESRCH) {
					continue
				}
				return err
			}
			changed = true
		}
		if !changed {
			return nil
		}
	}
	return errors.New("threads kept starting while their priority was set")
}

func threadIDs() ([]int, error) {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, err
	}
	tids := make([]int, 0, len(ents))
	for _, e := range ents {
		if tid, err := strconv.Atoi(e.Name()); err == nil {
			tids = append(tids, tid)
		}
	}
	return tids, nil
}

// threadNice is a thread's nice value. getpriority(2)'s raw system call
// returns 20 - nice, so that no valid result looks like an error.
func threadNice(tid int) (int, error) {
	p, err := unix.Getpriority(unix.PRIO_PROCESS, tid)
	if err != nil {
		return 0, err
	}
	return 20 - p, nil
}

// applyNice sets the datapath's nice value at start-up. Without the right
// to raise it (CAP_SYS_NICE or RLIMIT_NICE; under systemd, Nice= in the unit
// does it before privileges are dropped) airqd warns and runs as it is.
func applyNice(n int, log *slog.Logger) {
	cur, err := threadNice(0)
	if err == nil && cur == n {
		return
	}
	if err = setNice(n); err != nil {
		hint := ""
		if errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM) {
			hint = fmt.Sprintf("raising it needs CAP_SYS_NICE, or Nice=%d in the systemd unit", n)
		}
		log.Warn("datapath priority not set", "nice", n, "running_at", cur, "err", err, "hint", hint)
		return
	}
	log.Info("datapath priority", "nice", n)
}
