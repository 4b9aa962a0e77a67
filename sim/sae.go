package sim

import (
	"time"

	"github.com/airq/airq/sae"
)

// The simulator runs the core's SAE jobs as the shell's worker does, one
// at a time off the core, the radio's BSSes in turn (sae.NextInTurn: a
// flood aimed at one BSS delays another's joins by a job, not by its
// backlog), but in virtual time: each job takes Config.SAEJobCost of the
// simulated clock, and its result reaches the core then
// (ap.AP.HandleSAEDone). The job's arithmetic itself runs at that event,
// so that a run repeats exactly.

// SAEJobCost is the virtual time one SAE job takes by default: about
// what hunting and pecking costs on a slow AP core (the shell's worker
// measures the real figure against its budget).
const SAEJobCost = 5 * time.Millisecond

// saeRunner is the queue of jobs, in the order they came, when the
// worker is free again, and the BSS whose job ran last.
type saeRunner struct {
	s      *Sim
	jobs   []*sae.Job
	freeAt time.Duration
	last   sae.MAC
}

// RunSAE makes the simulator's driver an ap.SAEWorker.
func (d *driver) RunSAE(jobs []*sae.Job) {
	r := &d.sae
	r.s = d.s
	for _, j := range jobs {
		r.jobs = append(r.jobs, j)
		r.freeAt = max(r.freeAt, d.s.now) + d.s.cfg.SAEJobCost
		d.s.schedule(r.freeAt, evTimer, 0, nil, r)
	}
}

// fire runs the next job in turn and hands it back to the core.
func (r *saeRunner) fire(now time.Duration, _ int) {
	i := sae.NextInTurn(r.jobs, (*sae.Job).Own, r.last)
	if i < 0 {
		return
	}
	j := r.jobs[i]
	r.jobs = append(r.jobs[:i], r.jobs[i+1:]...)
	r.last = j.Own()
	j.Run(nil)
	r.s.core.HandleSAEDone(now, j)
	r.s.drainCore()
}
