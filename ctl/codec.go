package ctl

import (
	"bufio"
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"

	"github.com/airq/airq/counter"
)

// The text form is derived from the record types by reflection over their
// JSON names, so a field added to a record is encoded, decoded and printed
// by -json alike without a second list to keep in step. A counter.Set field
// stands for one field per counter, named by the counter's key.

type field struct {
	key   string
	index int  // of the struct field
	sub   int  // the counter within a counter.Set field; -1 for other fields
	text  bool // the field's type appends its own text form (encoding.TextAppender)
}

type record struct {
	fields []field
	byKey  map[string]field
}

// value is f's field in the struct v.
func (f field) value(v reflect.Value) reflect.Value {
	fv := v.Field(f.index)
	if f.sub >= 0 {
		return fv.Index(f.sub)
	}
	return fv
}

var (
	recStatus    = recordOf[Status]()
	recStation   = recordOf[Station]()
	recAQL       = recordOf[AQL]()
	recScheduler = recordOf[Scheduler]()
	recAC        = recordOf[SchedulerAC]()
	recScan      = recordOf[ScanStatus]()
	recBSS       = recordOf[BSS]()
	recSurvey    = recordOf[Survey]()
	recRates     = recordOf[RateTable]()
	recRate      = recordOf[RateStats]()
	recACS       = recordOf[ACS]()
	recAirtime   = recordOf[Airtime]()
	recAirBSS    = recordOf[AirtimeBSS]()
	recAirSta    = recordOf[AirtimeStation]()
	recDev       = recordOf[Dev]()
	textA        = reflect.TypeFor[encoding.TextAppender]()
	counterSet   = reflect.TypeFor[counter.Set]()
)

func recordOf[T any]() record {
	t := reflect.TypeFor[T]()
	r := record{byKey: map[string]field{}}
	add := func(f field) {
		r.fields = append(r.fields, f)
		r.byKey[f.key] = f
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type == counterSet {
			for id := range counter.NumIDs {
				add(field{id.Key(), i, int(id), false})
			}
			continue
		}
		key, _, _ := cutComma(f.Tag.Get("json"))
		k := f.Type.Kind()
		if key == "" || key == "-" || ((k == reflect.Array || k == reflect.Slice) && f.Type.Elem().Kind() == reflect.Struct) {
			continue // nested records are sections of their own
		}
		add(field{key, i, -1, reflect.PointerTo(f.Type).Implements(textA)})
	}
	return r
}

func cutComma(s string) (string, string, bool) {
	for i := range len(s) {
		if s[i] == ',' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// Encode returns r in the reply text form of doc.go, ending with the errno
// line and the empty line. (Not MarshalText: encoding/json would then
// print a Reply as one string.)
func (r *Reply) Encode() ([]byte, error) {
	var b []byte
	if r.Error != "" {
		b = append(b, "error="...)
		b = strconv.AppendQuote(b, r.Error)
		b = append(b, '\n')
	}
	var err error
	if r.Status != nil {
		b, err = appendSection(b, "status", recStatus, r.Status)
	}
	for i := 0; i < len(r.Stations) && err == nil; i++ {
		b, err = appendSection(b, "station", recStation, &r.Stations[i])
	}
	if r.AQL != nil && err == nil {
		b, err = appendSection(b, "aql", recAQL, r.AQL)
	}
	if r.Scheduler != nil && err == nil {
		b, err = appendSection(b, "scheduler", recScheduler, r.Scheduler)
		for i := 0; i < len(r.Scheduler.AC) && err == nil; i++ {
			b, err = appendSection(b, "ac", recAC, &r.Scheduler.AC[i])
		}
	}
	if r.Scan != nil && err == nil {
		b, err = appendSection(b, "scan", recScan, r.Scan)
	}
	for i := 0; i < len(r.BSSes) && err == nil; i++ {
		b, err = appendSection(b, "bss", recBSS, &r.BSSes[i])
	}
	for i := 0; i < len(r.Surveys) && err == nil; i++ {
		b, err = appendSection(b, "survey", recSurvey, &r.Surveys[i])
	}
	if r.Rates != nil && err == nil {
		b, err = appendSection(b, "rates", recRates, r.Rates)
		for i := 0; i < len(r.Rates.Rows) && err == nil; i++ {
			b, err = appendSection(b, "rate", recRate, &r.Rates.Rows[i])
		}
	}
	if r.ACS != nil && err == nil {
		b, err = appendSection(b, "acs", recACS, r.ACS)
	}
	for i := 0; i < len(r.Devs) && err == nil; i++ {
		b, err = appendSection(b, "dev", recDev, &r.Devs[i])
	}
	if r.Airtime != nil && err == nil {
		b, err = appendSection(b, "airtime", recAirtime, r.Airtime)
		for i := 0; i < len(r.Airtime.BSSes) && err == nil; i++ {
			b, err = appendSection(b, "airtime_bss", recAirBSS, &r.Airtime.BSSes[i])
		}
		for i := 0; i < len(r.Airtime.Stations) && err == nil; i++ {
			b, err = appendSection(b, "airtime_sta", recAirSta, &r.Airtime.Stations[i])
		}
	}
	if err != nil {
		return nil, err
	}
	return AppendEnd(b, r.Errno), nil
}

// WriteTo writes r's text form to w in one Write.
func (r *Reply) WriteTo(w io.Writer) (int64, error) {
	b, err := r.Encode()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

func appendSection(b []byte, name string, rec record, p any) ([]byte, error) {
	b = append(b, "section="...)
	b = append(b, name...)
	b = append(b, '\n')
	v := reflect.ValueOf(p).Elem()
	for _, f := range rec.fields {
		b = append(b, f.key...)
		b = append(b, '=')
		var err error
		if b, err = f.append(b, f.value(v)); err != nil {
			return nil, fmt.Errorf("ctl: %s %s: %w", name, f.key, err)
		}
		b = append(b, '\n')
	}
	return b, nil
}

// append appends the text form of v, f's field of an addressable record,
// without allocating.
func (f field) append(b []byte, v reflect.Value) ([]byte, error) {
	if f.text {
		return v.Addr().Interface().(encoding.TextAppender).AppendText(b)
	}
	return appendValue(b, v)
}

func appendValue(b []byte, v reflect.Value) ([]byte, error) {
	switch v.Kind() {
	case reflect.String:
		return strconv.AppendQuote(b, v.String()), nil
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.AppendUint(b, v.Uint(), 10), nil
	case reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%v is not a finite number", f)
		}
		return strconv.AppendFloat(b, f, 'g', -1, 64), nil
	}
	return nil, fmt.Errorf("unsupported type %s", v.Type())
}

// MaxReplyLine bounds one line of a reply; the longest field (an error
// message or a quoted SSID) is far shorter.
const MaxReplyLine = 4096

// ReadReply reads one reply from r. r should have a buffer of at least
// MaxReplyLine bytes (bufio.NewReaderSize). Unknown sections and keys,
// malformed values and a stream that ends inside a reply are errors.
func ReadReply(r *bufio.Reader) (Reply, error) {
	var d decoder
	for {
		line, err := r.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return Reply{}, errors.New("ctl: reply line too long")
		case err == io.EOF && len(line) == 0 && d.lines == 0:
			return Reply{}, io.EOF
		case err == io.EOF:
			return Reply{}, fmt.Errorf("ctl: reply: %w", io.ErrUnexpectedEOF)
		case err != nil:
			return Reply{}, err
		}
		done, err := d.line(line[:len(line)-1])
		if err != nil {
			return Reply{}, fmt.Errorf("ctl: reply line %d: %w", d.lines, err)
		}
		if done {
			return d.finish()
		}
	}
}

// DecodeReply decodes exactly one reply; trailing bytes are an error.
func DecodeReply(b []byte) (Reply, error) {
	br := bufio.NewReaderSize(bytes.NewReader(b), MaxReplyLine)
	r, err := ReadReply(br)
	if err != nil {
		return Reply{}, err
	}
	if br.Buffered() > 0 {
		return Reply{}, errors.New("ctl: data after the reply")
	}
	return r, nil
}
