#include "scenario.h"
#include "scenariocheck.h"

#include <QtTest>

#include <map>
#include <set>

using namespace latprobe;

class TestScenario : public QObject
{
    Q_OBJECT

private slots:
    void builtinPresetsParse_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("minSteps");
        QTest::addColumn<double>("minSeconds");
        QTest::addColumn<double>("maxSeconds");
        QTest::newRow("quick, ~2 min") << "quick" << 5 << 90.0 << 150.0;
        QTest::newRow("ramp, x10..x60") << "ramp" << 7 << 200.0 << 220.0;
        QTest::newRow("contest, each load alone") << "contest" << 6 << 60.0 << 700.0;
        QTest::newRow("interbench, each consumer x 6 loads")
            << "interbench" << 12 << 200.0 << 600.0;
    }

    void builtinPresetsParse()
    {
        QFETCH(QString, name);
        QFETCH(int, minSteps);
        QFETCH(double, minSeconds);
        QFETCH(double, maxSeconds);
        const auto s = builtinScenario(name.toStdString());
        QVERIFY2(s.has_value(), qPrintable(name));
        QVERIFY(static_cast<int>(s->steps.size()) >= minSteps);
        QVERIFY(s->totalS() >= minSeconds && s->totalS() <= maxSeconds);
        QVERIFY(!s->runsCommands()); // built-ins never need --allow-commands
    }

    void rampIsTheSeedThreadsTest()
    {
        const Scenario ramp = *builtinScenario("ramp");
        QVERIFY(ramp.stopWhen.has_value());
        // Judged against its idle step, which must be long enough to be a baseline.
        QVERIFY(ramp.stopWhen->aboveBaseline);
        QVERIFY(ramp.steps.front().loads.empty());
        QVERIFY(ramp.steps.front().durationS >= kMinComparedStepS);
        int expected = 10;
        for (const ScenarioStep &step : ramp.steps) {
            if (step.loads.empty())
                continue;
            QCOMPARE(step.loads.front().kindName(), std::string("massive_intr"));
            QCOMPARE(step.loads.front().count, expected);
            QCOMPARE(step.durationS, 30.0);
            expected += 10;
        }
        QCOMPARE(expected, 70);
    }

    void aStepMayMeasureSomeConsumersOnly()
    {
        const Scenario s = parseScenario(
            R"({"scenario_version": 1, "steps": [{"duration_s": 2},
                {"duration_s": 3, "consumers": ["audio"], "loads": ["burn:1"]}]})",
            "t.json");
        QVERIFY(s.steps[0].consumers.empty()); // every consumer
        QCOMPARE(s.steps[1].consumers, std::vector<std::string>{"audio"});
    }

    void aStepMayGoWithoutTheDelayExplainer()
    {
        const Scenario s = parseScenario(
            R"({"scenario_version": 1, "steps": [{"duration_s": 2},
                {"duration_s": 2, "trace": false}, {"duration_s": 2, "trace": true}]})",
            "t.json");
        QVERIFY(s.steps[0].trace); // recorded, when the run records at all
        QVERIFY(!s.steps[1].trace);
        QVERIFY(s.steps[2].trace);
    }

    void interbenchIsInterbenchsExperiment()
    {
        // Each consumer alone against each load, the loads in the probe's
        // own session (as interbench's are its children), Burn and Ring as
        // many threads as CPUs, Compile being Burn + Write + Read; each
        // step's consumer starts afresh, as interbench forks its benchmark
        // for each load.
        const Scenario ib = *builtinScenario("interbench");
        QCOMPARE(ib.preset, std::string("interbench"));
        QVERIFY(ib.restartConsumers);
        QVERIFY(!builtinScenario("contest")->restartConsumers);
        std::map<std::string, std::set<std::string>> loadsOf;
        for (const ScenarioStep &step : ib.steps) {
            QCOMPARE(step.consumers.size(), size_t(1));
            const std::string &consumer = step.consumers.front();
            const std::string load = step.name.substr(step.name.find(": ") + 2);
            QVERIFY2(loadsOf[consumer].insert(load).second, step.name.c_str());
            for (const LoadSpec &spec : step.loads) {
                QVERIFY2(!spec.ownSession, step.name.c_str());
                if (spec.kindName() == "burn" || spec.kindName() == "ring")
                    QCOMPARE(spec.params.at("threads"), std::string("nproc"));
            }
            if (load == "Compile")
                QCOMPARE(step.loads.size(), size_t(3));
        }
        const std::set<std::string> loads = {"None", "Burn", "Write", "Read", "Ring", "Compile"};
        QCOMPARE(loadsOf.size(), size_t(4)); // Audio, Video, X, Gaming
        for (const auto &[consumer, seen] : loadsOf)
            QCOMPARE(seen, loads);
        // The default caps let it run: Compile's Write and Read files are
        // two RAM-sized files. (Free disk space is this machine's, not judged.)
        QCOMPARE(checkScenario(ib, LoadLimits{.ioFreeShare = 1e9}), std::string());
    }

    void unnamedStepsAreNamedAfterTheirLoads()
    {
        const Scenario s = parseScenario(
            R"({"scenario_version": 1, "steps": [{"duration_s": 2, "loads": []},
                {"duration_s": 3, "loads": ["burn:2", "massive_intr:4"]}]})",
            "t.json");
        QCOMPARE(s.steps[0].name, std::string("idle"));
        QCOMPARE(s.steps[1].name, std::string("burn x2 + massive_intr x4"));
        QCOMPARE(s.totalS(), 5.0);
        QCOMPARE(s.name, std::string("t.json"));
    }

    void errorsNameTheLineOrField_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("broken JSON names the line")
            << "{\n\"scenario_version\": 1,\n\"steps\": [\n}"
            << "s.json: not valid JSON at line 4";
        QTest::newRow("no version") << R"({"steps": []})"
                                    << "s.json: scenario_version: missing";
        QTest::newRow("future version") << R"({"scenario_version": 2, "steps": []})"
                                        << "s.json: scenario_version: version 2";
        QTest::newRow("unknown top field") << R"({"scenario_version": 1, "stpes": []})"
                                           << "s.json: stpes: unknown field";
        QTest::newRow("no steps") << R"({"scenario_version": 1})"
                                  << "s.json: steps: missing";
        QTest::newRow("a step's consumers not a list of names")
            << R"({"scenario_version": 1, "steps": [{"duration_s": 1, "consumers": ["audio", 3]}]})"
            << "s.json: steps[0].consumers[1]: expected a consumer's name";
        QTest::newRow("a step measuring no consumer")
            << R"({"scenario_version": 1, "steps": [{"duration_s": 1, "consumers": []}]})"
            << "s.json: steps[0].consumers: unknown or malformed";
        QTest::newRow("a step's trace not true or false")
            << R"({"scenario_version": 1, "steps": [{"duration_s": 1, "trace": "off"}]})"
            << "s.json: steps[0].trace: unknown or malformed";
        QTest::newRow("restart_consumers not true or false")
            << R"({"scenario_version": 1, "restart_consumers": 1, "steps": [{"duration_s": 1}]})"
            << "s.json: restart_consumers: expected true or false";
        QTest::newRow("step without duration")
            << R"({"scenario_version": 1, "steps": [{"loads": []}]})"
            << "s.json: steps[0].duration_s: missing";
        QTest::newRow("negative duration")
            << R"({"scenario_version": 1, "steps": [{"duration_s": 1}, {"duration_s": -3}]})"
            << "s.json: steps[1].duration_s: must be > 0";
        QTest::newRow("bad load kind")
            << R"({"scenario_version": 1, "steps": [{"duration_s": 1, "loads": ["burn:1", "bogus:2"]}]})"
            << "s.json: steps[0].loads[1]: unknown load kind \"bogus\"";
        QTest::newRow("absurd count")
            << R"({"scenario_version": 1, "steps": [{"duration_s": 1, "loads": ["burn:0"]}]})"
            << "s.json: steps[0].loads[0]: load \"burn:0\": the worker count";
        QTest::newRow("unknown preset")
            << R"({"scenario_version": 1, "preset": "x", "steps": [{"duration_s": 1}]})"
            << "s.json: preset: unknown consumer preset";
        QTest::newRow("stop_when without consumers")
            << R"({"scenario_version": 1, "stop_when": {"misses_over": 1}, "steps": [{"duration_s": 1}]})"
            << "s.json: stop_when.consumers";
        QTest::newRow("stop_when with a count and a baseline")
            << R"({"scenario_version": 1, "stop_when": {"consumers": ["audio"], "misses_over": 1, "above_baseline": true}, "steps": [{"duration_s": 30}, {"duration_s": 30}]})"
            << "s.json: stop_when: give above_baseline or misses_over, not both";
        QTest::newRow("a step too short to compare with the baseline")
            << R"({"scenario_version": 1, "stop_when": {"consumers": ["audio"], "above_baseline": true}, "steps": [{"duration_s": 30}, {"duration_s": 10}]})"
            << "s.json: steps[1].duration_s: 10 s is too short to compare with the baseline";
        QTest::newRow("a baseline and nothing to compare")
            << R"({"scenario_version": 1, "stop_when": {"consumers": ["audio"], "above_baseline": true}, "steps": [{"duration_s": 30}]})"
            << "s.json: steps: stop_when.above_baseline needs a baseline step";
        QTest::newRow("rounds until decided with too few looks")
            << R"({"scenario_version": 1, "rounds": "auto:3", "steps": [{"duration_s": 1}]})"
            << "s.json: rounds: rounds \"auto:3\": auto:MAX takes MAX from 5 to 30";
        QTest::newRow("no rounds")
            << R"({"scenario_version": 1, "rounds": 0, "steps": [{"duration_s": 1}]})"
            << "s.json: rounds: rounds \"0\": give a whole number from 1 to 1000, or auto[:MAX]";
        // Found by fuzz_scenario: nlohmann throws out_of_range, not a
        // parse_error, for a number past a double's range.
        QTest::newRow("number too large for a double")
            << R"({"scenario_version": 1, "steps": [{"duration_s": 1e400}]})"
            << "s.json: not valid JSON: a number out of range";
        // get<int>() wrapped 2^32 + 1 to the supported version 1.
        QTest::newRow("version past 32 bits")
            << R"({"scenario_version": 4294967297, "steps": [{"duration_s": 1}]})"
            << "s.json: scenario_version: version 4294967297";
        // Each "0-1023" asked for 1024 entries: a long list took gigabytes.
        QTest::newRow("cpu list naming more CPUs than exist")
            << R"({"scenario_version": 1, "steps": [{"duration_s": 1, "loads": ["burn:1:cpus=0-1023,0"]}]})"
            << "s.json: steps[0].loads[0]: load \"burn:1:cpus=0-1023,0\": cpus";
    }

    void errorsNameTheLineOrField()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        try {
            parseScenario(json.toStdString(), "s.json");
            QFAIL("accepted a bad scenario");
        } catch (const ScenarioError &e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.startsWith(expected), qPrintable(message));
            QVERIFY2(!message.contains('\n'), "an error is one line");
        }
    }

    void describePlaySaysWhatIsAboutToHappen()
    {
        Scenario quick = *builtinScenario("quick");
        quick.rounds = 3;
        QCOMPARE(describePlay(quick),
                 std::string("playing quick: 5 steps x 3 rounds, interleaved, 6 min"));
        Scenario run;
        run.name = "run";
        run.steps = {{"idle", 5, {}}, {"burn x2", 30, {}}};
        QCOMPARE(describePlay(run), std::string("measuring idle 5 s, then burn x2 30 s"));
        run.rounds = 2;
        QCOMPARE(describePlay(run),
                 std::string("measuring idle 5 s, then burn x2 30 s x 2 rounds, interleaved, "
                             "1 min 10 s"));
    }

    void roundsMayPlayUntilDecided()
    {
        const Scenario s = parseScenario(
            R"({"scenario_version": 1, "rounds": "auto:8", "steps": [{"duration_s": 5}]})",
            "s.json");
        QVERIFY(s.untilDecided);
        QCOMPARE(s.rounds, 8);
        std::string error;
        const std::optional<Rounds> plain = parseRounds("auto", error);
        QVERIFY(plain && plain->untilDecided);
        QCOMPARE(plain->count, kDefaultAutoRounds);
        const std::optional<Rounds> six = parseRounds("6", error);
        QVERIFY(six && !six->untilDecided && six->count == 6);
        QVERIFY(!parseRounds("auto:", error));
        QVERIFY(!parseRounds("6x", error));
        QVERIFY2(error.find("auto[:MAX]") != std::string::npos, error.c_str());
        Scenario run;
        run.name = "run";
        run.steps = {{"idle", 5, {}}, {"burn x2", 30, {}}};
        run.rounds = 12;
        run.untilDecided = true;
        QCOMPARE(describePlay(run),
                 std::string("measuring idle 5 s, then burn x2 30 s x up to 12 rounds until "
                             "decided, interleaved, at most 7 min"));
    }

    void customLoadsNeedConsent()
    {
        const Scenario s = parseScenario(
            R"({"scenario_version": 1, "steps": [{"duration_s": 1, "loads": ["custom:1:cmd=sleep 5"]}]})",
            "s.json");
        QVERIFY(s.runsCommands());
    }
};

QTEST_APPLESS_MAIN(TestScenario)
#include "tst_scenario.moc"
