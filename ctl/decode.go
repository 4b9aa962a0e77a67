package ctl

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// decoder accumulates one reply line by line.
type decoder struct {
	r      Reply
	lines  int
	errno  bool // the errno line was read; the empty line ends the reply
	rec    record
	cur    reflect.Value // the record being filled
	name   string
	nextAC int
}

func (d *decoder) line(l []byte) (done bool, err error) {
	d.lines++
	if d.errno {
		if len(l) != 0 {
			return false, errors.New("want an empty line after errno")
		}
		return true, nil
	}
	k, v, ok := bytes.Cut(l, []byte{'='})
	if !ok {
		return false, fmt.Errorf("%q is not key=value", l)
	}
	switch string(k) {
	case "errno":
		n, err := strconv.ParseUint(string(v), 10, 16)
		if err != nil {
			return false, fmt.Errorf("errno %q: want a number", v)
		}
		d.r.Errno, d.errno = Errno(n), true
		return false, nil
	case "error":
		if d.lines != 1 {
			return false, errors.New("error must be the first line")
		}
		s, err := unquote(v)
		d.r.Error = s
		return false, err
	case "section":
		return false, d.section(string(v))
	}
	if !d.cur.IsValid() {
		return false, fmt.Errorf("key %q outside a section", k)
	}
	f, ok := d.rec.byKey[string(k)]
	if !ok {
		return false, fmt.Errorf("section %s: unknown key %q", d.name, k)
	}
	if err := setValue(f.value(d.cur), v); err != nil {
		return false, fmt.Errorf("section %s: %s: %w", d.name, k, err)
	}
	return false, nil
}

func (d *decoder) section(name string) error {
	d.name = name
	switch name {
	case "status":
		if d.r.Status != nil {
			return errors.New("second status section")
		}
		d.r.Status = new(Status)
		d.rec, d.cur = recStatus, reflect.ValueOf(d.r.Status).Elem()
	case "station":
		if len(d.r.Stations) == maxStations {
			return fmt.Errorf("more than %d stations", maxStations)
		}
		d.r.Stations = append(d.r.Stations, Station{})
		d.rec, d.cur = recStation, reflect.ValueOf(&d.r.Stations[len(d.r.Stations)-1]).Elem()
	case "aql":
		if d.r.AQL != nil {
			return errors.New("second aql section")
		}
		d.r.AQL = new(AQL)
		d.rec, d.cur = recAQL, reflect.ValueOf(d.r.AQL).Elem()
	case "scheduler":
		if d.r.Scheduler != nil {
			return errors.New("second scheduler section")
		}
		d.r.Scheduler = new(Scheduler)
		d.rec, d.cur = recScheduler, reflect.ValueOf(d.r.Scheduler).Elem()
	case "ac":
		if d.r.Scheduler == nil || d.nextAC == len(d.r.Scheduler.AC) {
			return errors.New("ac section without a scheduler section, or more than 4")
		}
		d.rec, d.cur = recAC, reflect.ValueOf(&d.r.Scheduler.AC[d.nextAC]).Elem()
		d.nextAC++
	case "acs":
		if d.r.ACS != nil {
			return errors.New("second acs section")
		}
		d.r.ACS = new(ACS)
		d.rec, d.cur = recACS, reflect.ValueOf(d.r.ACS).Elem()
	case "scan":
		if d.r.Scan != nil {
			return errors.New("second scan section")
		}
		d.r.Scan = new(ScanStatus)
		d.rec, d.cur = recScan, reflect.ValueOf(d.r.Scan).Elem()
	case "bss":
		if len(d.r.BSSes) == maxBSSes {
			return fmt.Errorf("more than %d bss sections", maxBSSes)
		}
		d.r.BSSes = append(d.r.BSSes, BSS{})
		d.rec, d.cur = recBSS, reflect.ValueOf(&d.r.BSSes[len(d.r.BSSes)-1]).Elem()
	case "survey":
		if len(d.r.Surveys) == maxSurveys {
			return fmt.Errorf("more than %d survey sections", maxSurveys)
		}
		d.r.Surveys = append(d.r.Surveys, Survey{})
		d.rec, d.cur = recSurvey, reflect.ValueOf(&d.r.Surveys[len(d.r.Surveys)-1]).Elem()
	case "airtime":
		if d.r.Airtime != nil {
			return errors.New("second airtime section")
		}
		d.r.Airtime = new(Airtime)
		d.rec, d.cur = recAirtime, reflect.ValueOf(d.r.Airtime).Elem()
	case "airtime_bss":
		a := d.r.Airtime
		if a == nil || len(a.BSSes) == maxAirtimeBSSes {
			return fmt.Errorf("airtime_bss section without an airtime section, or more than %d", maxAirtimeBSSes)
		}
		a.BSSes = append(a.BSSes, AirtimeBSS{})
		d.rec, d.cur = recAirBSS, reflect.ValueOf(&a.BSSes[len(a.BSSes)-1]).Elem()
	case "airtime_sta":
		a := d.r.Airtime
		if a == nil || len(a.Stations) == maxStations {
			return fmt.Errorf("airtime_sta section without an airtime section, or more than %d", maxStations)
		}
		a.Stations = append(a.Stations, AirtimeStation{})
		d.rec, d.cur = recAirSta, reflect.ValueOf(&a.Stations[len(a.Stations)-1]).Elem()
	case "dev":
		if len(d.r.Devs) == maxDevs {
			return fmt.Errorf("more than %d dev sections", maxDevs)
		}
		d.r.Devs = append(d.r.Devs, Dev{})
		d.rec, d.cur = recDev, reflect.ValueOf(&d.r.Devs[len(d.r.Devs)-1]).Elem()
	case "rates":
		if d.r.Rates != nil {
			return errors.New("second rates section")
		}
		d.r.Rates = new(RateTable)
		d.rec, d.cur = recRates, reflect.ValueOf(d.r.Rates).Elem()
	case "rate":
		t := d.r.Rates
		if t == nil {
			return errors.New("rate section without a rates section")
		}
		if len(t.Rows) == maxRateRows {
			return fmt.Errorf("more than %d rate sections", maxRateRows)
		}
		t.Rows = append(t.Rows, RateStats{})
		d.rec, d.cur = recRate, reflect.ValueOf(&t.Rows[len(t.Rows)-1]).Elem()
	default:
		return fmt.Errorf("unknown section %q: want status, station, aql, scheduler, ac, scan, bss, survey, rates or rate", name)
	}
	return nil
}

// finish checks what only the whole reply shows: a scheduler has its four
// ACs, in order.
func (d *decoder) finish() (Reply, error) {
	if s := d.r.Scheduler; s != nil {
		if d.nextAC != len(s.AC) {
			return Reply{}, fmt.Errorf("ctl: reply: scheduler with %d ac sections, want 4", d.nextAC)
		}
		for i, a := range s.AC {
			if int(a.AC) != i {
				return Reply{}, fmt.Errorf("ctl: reply: ac section %d is %s, want the order VO VI BE BK", i+1, a.AC)
			}
		}
	}
	return d.r, nil
}

func setValue(v reflect.Value, s []byte) error {
	if u, ok := v.Addr().Interface().(encoding.TextUnmarshaler); ok {
		return u.UnmarshalText(s)
	}
	switch v.Kind() {
	case reflect.String:
		str, err := unquote(s)
		v.SetString(str)
		return err
	case reflect.Bool:
		switch string(s) {
		case "true", "false":
			v.SetBool(s[0] == 't')
			return nil
		}
		return fmt.Errorf("%q: want true or false", s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(string(s), 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q: want a %d-bit integer", s, v.Type().Bits())
		}
		v.SetInt(n)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(string(s), 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q: want an unsigned %d-bit integer", s, v.Type().Bits())
		}
		v.SetUint(n)
		return nil
	case reflect.Float64:
		f, err := strconv.ParseFloat(string(s), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%q: want a finite number", s)
		}
		v.SetFloat(f)
		return nil
	}
	return fmt.Errorf("unsupported type %s", v.Type())
}

// unquote takes Go double-quoted strings only, the form AppendQuote makes.
func unquote(s []byte) (string, error) {
	if len(s) < 2 || s[0] != '"' {
		return "", fmt.Errorf("%q: want a double-quoted string", s)
	}
	str, err := strconv.Unquote(string(s))
	if err != nil {
		return "", fmt.Errorf("%q: want a double-quoted string", s)
	}
	return str, nil
}
