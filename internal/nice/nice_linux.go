package nice

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Set gives every thread of the process the nice value n. Linux keeps
// nice per thread and a new thread inherits its creator's, so once all
// existing threads have it, so do the ones the runtime starts later; the
// loop repeats for a thread started while it ran.
func Set(n int) error {
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

// Apply sets the datapath's nice value at start-up. Without the right
// to raise it (CAP_SYS_NICE or RLIMIT_NICE; under systemd, Nice= in the unit
// does it before privileges are dropped) airqd warns and runs as it is.
// It returns the nice value the threads run at.
func Apply(n int, log *slog.Logger) int {
	cur, err := threadNice(0)
	if err == nil && cur == n {
		return n
	}
	if err = Set(n); err != nil {
		hint := ""
		if errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM) {
			hint = fmt.Sprintf("raising it needs CAP_SYS_NICE, or Nice=%d in the systemd unit", n)
		}
		log.Warn("datapath priority not set", "nice", n, "running_at", cur, "err", err, "hint", hint)
		return cur
	}
	log.Info("datapath priority", "nice", n)
	return n
}
