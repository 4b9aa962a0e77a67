package sim

import (
	"time"

	"github.com/airq/airq/sae"
)

// The simulator runs the core's SAE jobs as the shell's worker does, one
// at a time off the core, but in virtual time: each job takes SAEJobCost
// of the simulated clock, and its result reaches the core then
// (ap.AP.HandleSAEDone). The job's arithmetic itself runs at that event,
// so that a run repeats exactly.

// SAEJobCost is the virtual time one SAE job takes: about what hunting
// and pecking costs on a slow AP core (the shell's worker measures the
// real figure against its budget).
const SAEJobCost = 5 * time.Millisecond

// saeRunner is the queue of jobs and when the worker is free again.
type saeRunner struct {
	s      *Sim
	jobs   []*sae.Job
	freeAt time.Duration
}

// RunSAE makes the simulator's driver an ap.SAEWorker.
func (d *driver) RunSAE(jobs []*sae.Job) {
	r := &d.sae
	r.s = d.s
	for _, j := range jobs {
		r.jobs = append(r.jobs, j)
		r.freeAt = max(r.freeAt, d.s.now) + SAEJobCost
		d.s.schedule(r.freeAt, evTimer, 0, nil, r)
	}
}

// fire runs the oldest job and hands it back to the core.
func (r *saeRunner) fire(now time.Duration, _ int) {
	if len(r.jobs) == 0 {
		return
	}
	j := r.jobs[0]
	r.jobs = r.jobs[1:]
	j.Run(nil)
	r.s.core.HandleSAEDone(now, j)
	r.s.drainCore()
}
