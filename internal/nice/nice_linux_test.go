package nice

import (
	"bytes"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// niceChild is set in the re-executed test binary, which changes its own
// priority so that the test process keeps its own.
const niceChild = "AIRQ_TEST_NICE_CHILD"

// Every thread gets the nice value, including threads started afterwards;
// lowering the priority needs no privilege, so this runs as any user.
func TestSetNiceAllThreads(t *testing.T) {
	if os.Getenv(niceChild) != "" {
		niceChildMain(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSetNiceAllThreads$", "-test.v")
	cmd.Env = append(os.Environ(), niceChild+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func niceChildMain(t *testing.T) {
	// Threads the runtime has before: some locked to their goroutines.
	var wg sync.WaitGroup
	release := make(chan struct{})
	lockThreads := func(n int) {
		for range n {
			wg.Go(func() {
				runtime.LockOSThread()
				<-release
			})
		}
	}
	lockThreads(3)
	if err := Set(7); err != nil {
		t.Fatal(err)
	}
	lockThreads(3) // started afterwards: inherit it
	checkAllNice(t, 7)
	close(release)
	wg.Wait()

	// Apply logs what it did, and does nothing when already there.
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	Apply(9, log)
	checkAllNice(t, 9)
	Apply(9, log)
	if n := strings.Count(logs.String(), "datapath priority"); n != 1 {
		t.Fatalf("logs: %d lines, want 1:\n%s", n, logs.String())
	}
	// Raising it back needs CAP_SYS_NICE: as root it works, otherwise a
	// warning names what is missing and nothing fails.
	logs.Reset()
	Apply(0, log)
	if os.Geteuid() == 0 {
		checkAllNice(t, 0)
	} else if !strings.Contains(logs.String(), "CAP_SYS_NICE") {
		t.Fatalf("unprivileged raise: %s", logs.String())
	}
}

func checkAllNice(t *testing.T, want int) {
	t.Helper()
	tids, err := threadIDs()
	if err != nil {
		t.Fatal(err)
	}
	if len(tids) < 4 {
		t.Fatalf("%d threads, want the locked ones too", len(tids))
	}
	for _, tid := range tids {
		if n, err := threadNice(tid); err == nil && n != want {
			t.Errorf("thread %d: nice %d, want %d", tid, n, want)
		}
	}
}
