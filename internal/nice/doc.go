// Package nice sets the nice value of every thread of the process: the
// datapath's priority. The kernel's own AP datapath runs in softirq
// context, ahead of every process; airqd's runs in a process and, at the
// default nice of 0, a TCP sender or receiver on the same core preempts it
// at each frame it wakes it for. airqd then handles a frame or two per
// wake-up, and every hop pays a thread switch. At nice -10 it drains what
// is ready before it yields: on the one-core qemu test bed that cut the
// thread switches per TCP segment five-fold and raised downlink TCP through
// airqd from 8-20 to 66-73 Mbit/s.
package nice
