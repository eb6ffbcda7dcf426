import subprocess, sys, os, time, threading
# usage: startup-cpu.py N [jvm args...]: runs the Jetty12App N times; waits for PORT= and (if agent) "admin API on"; prints wall to PORT, wall to admin, CPU
cp=open(os.environ.get('CP_FILE','/tmp/agentperf-cp.txt')).read().strip()
n=int(sys.argv[1]); extra=sys.argv[2:]
agent=any(a.startswith('-javaagent') for a in extra)
res=[]
for i in range(n):
    t0=time.time()
    p=subprocess.Popen(['java','-Xmx256m']+extra+['-cp',cp,'io.loadsmith.agent.apps.Jetty12App'],stdin=subprocess.PIPE,stdout=subprocess.PIPE,stderr=subprocess.PIPE,text=True,cwd=os.path.join(os.path.dirname(os.path.abspath(__file__)),'..'))
    port=[None]; admin=[None]
    def out():
        for l in p.stdout:
            if l.startswith('PORT=') and port[0] is None: port[0]=time.time()-t0
    def err():
        for l in p.stderr:
            if 'admin API on' in l and admin[0] is None: admin[0]=time.time()-t0
    ts=[threading.Thread(target=out),threading.Thread(target=err)]
    [t.start() for t in ts]
    while port[0] is None or (agent and admin[0] is None):
        time.sleep(0.02)
        if time.time()-t0>60: break
    p.stdin.close()
    _,status,ru=os.wait4(p.pid,0)
    [t.join() for t in ts]
    res.append((port[0],admin[0],ru.ru_utime+ru.ru_stime))
    print('run %d: port %.2f s, admin %s, cpu %.2f s'%(i+1,port[0],'%.2f s'%admin[0] if admin[0] else '-',ru.ru_utime+ru.ru_stime),flush=True)
import statistics as st
print('MEDIAN port %.2f admin %s cpu %.2f'%(st.median(r[0] for r in res), '%.2f'%st.median(r[1] for r in res) if agent else '-', st.median(r[2] for r in res)))
