package io.tcpload.runner.profile;

import java.util.List;

/** A profile that loaded, with the warnings found on the way (aliases, ignored keys, ...). */
public record LoadedProfile(Profile profile, List<ProfileProblem> warnings) {
    public LoadedProfile {
        warnings = List.copyOf(warnings);
    }
}
