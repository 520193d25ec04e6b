#pragma once

#include <QString>

#include <map>
#include <string>

class QSettings;

namespace latprobe {

struct LoadKind;

// What a load row would start: count, nice, every parameter, policy,
// CPUs, session, command. Written out as the same KIND:N:key=value text
// the CLI takes, so parseLoadSpec validates both front ends alike.
struct LoadChoice
{
    std::string kind;
    int count = 1;
    int nice = 0;
    std::map<std::string, double> params; // every parameter of the kind
    QString policy = QStringLiteral("other");
    QString cpus;
    bool ownSession = true;
    QString command; // custom only

    static LoadChoice defaults(const LoadKind &kind);
    QString specText() const;
    // Beyond count, nice and the first parameter: what the editor holds.
    QString extrasSummary(const LoadKind &loadKind) const;

    bool operator==(const LoadChoice &) const = default;

    void save(QSettings &settings) const;
    void load(QSettings &settings, const LoadKind &kind);
};

} // namespace latprobe
