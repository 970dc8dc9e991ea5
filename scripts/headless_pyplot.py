"""matplotlib's pyplot drawing into files (the Agg backend, no display), for
the plot scripts beside this one; a Python that cannot import matplotlib
ends the script with a message that names it and says what to install.

    from headless_pyplot import pyplot
    plt = pyplot("plot_comparison.py")
"""

import sys


def pyplot(script):
    try:
        import matplotlib
    except ImportError:
        sys.exit(f"{script}: {sys.executable} cannot import matplotlib "
                 "(Debian: apt-get install python3-matplotlib; or run it with a Python that has it)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # the backend is chosen first

    return plt
