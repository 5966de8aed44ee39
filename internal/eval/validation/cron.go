package validation

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	// kube-apiserver embeds the time zone database for CronJob timeZone
	// (cmd/kube-apiserver imports time/tzdata): names resolve without the
	// system's zoneinfo, here too.
	_ "time/tzdata"

	"github.com/robfig/cron/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// VAL-47: a CronJob's schedule.

// Schedule is validateScheduleFormat on create: the schedule parses with
// robfig/cron's standard parser (5 fields or a descriptor, as upstream parses
// it, a parser panic reported as an invalid format), and names no time zone.
func Schedule(schedule string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if _, err := parseSchedule(schedule); err != nil {
		errs = append(errs, field.Invalid(p, schedule, err.Error()))
	}
	if strings.Contains(schedule, "TZ") {
		errs = append(errs, field.Invalid(p, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
	}
	return errs
}

// ScheduleFires reports whether a schedule that parses names a time that
// exists: robfig/cron finds none within five years for one like
// "0 0 30 2 *", and the CronJob controller then never schedules (WL-11).
// A schedule that does not parse is validation's to report: true.
func ScheduleFires(schedule string) bool {
	s, err := parseSchedule(schedule)
	if err != nil {
		return true
	}
	return !s.Next(time.Now()).IsZero()
}

// parseSchedule is ParseCronScheduleWithPanicRecovery.
func parseSchedule(schedule string) (s cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("invalid schedule format: %v", r)
		}
	}()
	return cron.ParseStandard(schedule)
}

// validTimeZoneCharacters: one component of an IANA name (with the legacy
// digits and '+' tolerated).
var validTimeZoneCharacters = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z\.\-_0-9+]{1,14}$`)
})

// VAL-48: a CronJob's timeZone.

// TimeZone is validateTimeZone: unset, or an explicit IANA zone name the
// embedded database knows.
func TimeZone(tz *string, p *field.Path) field.ErrorList {
	if tz == nil {
		return nil
	}
	if *tz == "" {
		return field.ErrorList{field.Invalid(p, tz, "timeZone must be nil or non-empty string")}
	}
	for _, part := range strings.Split(*tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !validTimeZoneCharacters().MatchString(part) {
			return field.ErrorList{field.Invalid(p, tz, "unknown time zone "+*tz)}
		}
	}
	var errs field.ErrorList
	if strings.EqualFold(*tz, "Local") {
		errs = append(errs, field.Invalid(p, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
	}
	if _, err := time.LoadLocation(*tz); err != nil {
		errs = append(errs, field.Invalid(p, tz, err.Error()))
	}
	return errs
}
