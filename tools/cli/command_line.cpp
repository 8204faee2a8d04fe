#include "command_line.h"

#include <iostream>

namespace po = boost::program_options;

namespace dejarik::tools {

int usageError(std::string_view program, std::string_view message) {
    std::cerr << program << ": error: " << message << "\n";
    return kExitUsage;
}

namespace {

template <class T>
bool holds(const po::value_semantic* semantic) {
    return dynamic_cast<const po::typed_value<T>*>(semantic) != nullptr;
}

}  // namespace

void refuseNegativeUnsigned(const po::parsed_options& parsed) {
    if (!parsed.description) return;
    for (const po::option& o : parsed.options) {
        const po::option_description* d = parsed.description->find_nothrow(o.string_key, false);
        if (!d) continue;
        const po::value_semantic* s = d->semantic().get();
        if (!holds<unsigned>(s) && !holds<unsigned long>(s) && !holds<unsigned long long>(s))
            continue;
        for (const std::string& v : o.value)
            if (v.find('-') != std::string::npos)
                throw po::error("--" + o.string_key + " must not be negative, got '" + v + "'");
    }
}

namespace {

// The parse behind parseOptions and parseCommandLine; throws po::error on a bad line.
void parseInto(const std::vector<std::string>& args, const po::options_description& options,
               const po::positional_options_description* positional,
               const std::function<void(const po::parsed_options&)>& inspect,
               po::variables_map& vm) {
    // An empty positional description turns stray words into an error instead of silently
    // dropping them.
    const po::positional_options_description none;
    const po::parsed_options parsed = po::command_line_parser(args)
                                          .options(options)
                                          .positional(positional ? *positional : none)
                                          .run();
    refuseNegativeUnsigned(parsed);
    if (inspect) inspect(parsed);
    po::store(parsed, vm);
    po::notify(vm);
}

}  // namespace

po::variables_map parseOptions(const std::vector<std::string>& args,
                               const po::options_description& options) {
    po::variables_map vm;
    try {
        parseInto(args, options, nullptr, {}, vm);
    } catch (const po::error& e) {
        throw UsageError{e.what()};
    }
    return vm;
}

std::optional<int> parseCommandLine(const CommandLine& line, const std::vector<std::string>& args,
                                    po::variables_map& vm) {
    try {
        po::options_description all;
        all.add(line.options);
        if (line.hidden) all.add(*line.hidden);
        parseInto(args, all, line.positional, line.inspect, vm);
    } catch (const po::error& e) {
        return usageError(line.program, e.what());
    }
    if (vm.count("help")) {
        std::cout << line.options << "\n";
        return 0;
    }
    return std::nullopt;
}

std::optional<int> parseCommandLine(const CommandLine& line, int argc, char** argv,
                                    po::variables_map& vm) {
    return parseCommandLine(line, std::vector<std::string>(argv + 1, argv + argc), vm);
}

}  // namespace dejarik::tools
