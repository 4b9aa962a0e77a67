package shell

import (
	"context"
	"fmt"

	"github.com/airq/airq/ctl"
)

// logsChange reports whether a request is a live change the server logs.
func logsChange(op ctl.Op) bool {
	return op == ctl.OpAQLSet || op == ctl.OpAQLThreshold || op == ctl.OpStationSet
}

// change applies a set request in one pass of the loop together with the
// reading before it, so that the logged old value is the one it replaced,
// and logs the change once applied.
func (s *ControlServer) change(req ctl.Request) ctl.Reply {
	read := ctl.Request{Op: ctl.OpAQL}
	if req.Op == ctl.OpStationSet {
		read = ctl.Request{Op: ctl.OpStationGet, Addr: req.Addr}
	}
	call := &ControlCall{req: req, read: &read, reply: make(chan ctl.Reply, 1)}
	after, err := s.send(context.Background(), call)
	if err != nil {
		return ctl.Errorf(ctl.EBUSY, "%v", err)
	}
	if after.Errno == ctl.OK && call.before.Errno == ctl.OK {
		s.logChange(req, &call.before, &after)
	}
	return after
}

func (s *ControlServer) logChange(req ctl.Request, before, after *ctl.Reply) {
	switch {
	case req.Op == ctl.OpAQLSet && before.AQL != nil && after.AQL != nil:
		ac := req.AC
		s.log.Info("control: aql set", "ac", ac.String(), "low_us", arrow(before.AQL.Low[ac], after.AQL.Low[ac]),
			"high_us", arrow(before.AQL.High[ac], after.AQL.High[ac]))
	case req.Op == ctl.OpAQLThreshold && before.AQL != nil && after.AQL != nil:
		s.log.Info("control: aql threshold", "threshold_us", arrow(before.AQL.Threshold, after.AQL.Threshold))
	case req.Op == ctl.OpStationSet && len(before.Stations) == 1 && len(after.Stations) == 1:
		s.log.Info("control: station set", "addr", req.Addr.String(),
			"airtime_weight", arrow(before.Stations[0].AirtimeWeight, after.Stations[0].AirtimeWeight))
	}
}

// arrow prints a change as old->new.
func arrow[T any](old, new T) string { return fmt.Sprintf("%v->%v", old, new) }
