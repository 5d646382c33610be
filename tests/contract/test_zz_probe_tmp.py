import subprocess, sys, signal, time
from kikimimi.adapters.cloud_tasks import local_client
from tests.contract.test_cloud_tasks_standin import *  # noqa

def test_zz_probe():
    p = subprocess.Popen([sys.executable, "-m", "kikimimi.local.cloud_tasks", "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = p.stdout.readline().strip()
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(timeout=5)
    except Exception:
        print(open(f"/proc/{p.pid}/status").read())
        subprocess.run(["gdb","-p",str(p.pid),"-batch","-ex","thread apply all bt 8"], capture_output=False)
        p.kill()
        raise
